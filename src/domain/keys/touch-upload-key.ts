import type { DomainContext } from '../context.js';
import type { Database } from '../../storage/database.js';

/** The key's "last connected" / "last used" times are accurate to this much (openstatus debounces `lastUsed` alike). */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

interface Touched {
  connected: number;
  used: number;
}

/** Per database handle and workspace: when this process last wrote each time. */
const touched = new WeakMap<Database, Map<string, Touched>>();

function touchedOf(store: Database): Map<string, Touched> {
  let map = touched.get(store);
  if (!map) {
    map = new Map();
    touched.set(store, map);
  }
  return map;
}

/**
 * Records that the workspace's upload key connected (`used: false`, a connection test) or stored an upload
 * (`used: true`), at most once a minute per workspace and process, in its own small write after the upload has
 * committed. It is never part of an upload's transaction: concurrent uploads for several workspaces would otherwise
 * lock the upload_keys rows in whatever order their batches hold them, and deadlock on PostgreSQL. A failure here
 * loses one timestamp, never an upload, so it is swallowed.
 */
export async function touchUploadKey({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { workspaceId: string; at: string; used: boolean };
}): Promise<void> {
  const map = touchedOf(ctx.store);
  const now = ctx.clock.now().getTime();
  const last = map.get(input.workspaceId) ?? { connected: -Infinity, used: -Infinity };
  const fresh = (t: number) => now - t < KEY_TOUCH_INTERVAL_MS && now >= t;
  const setUsed = input.used && !fresh(last.used);
  const setConnected = !fresh(last.connected);
  if (!setUsed && !setConnected) return;
  // An upload is also a connection: writing "used" writes "connected" with it.
  map.set(input.workspaceId, { connected: now, used: setUsed ? now : last.used });
  try {
    await ctx.store.writer.write((trx) =>
      trx
        .updateTable('upload_keys')
        .set(setUsed ? { last_used_at: input.at, last_connected_at: input.at } : { last_connected_at: input.at })
        .where('workspace_id', '=', input.workspaceId)
        .execute(),
    );
  } catch {
    // Try again with the next upload rather than in a minute.
    map.delete(input.workspaceId);
  }
}

/** Forget what was written, e.g. after `key regenerate` cleared the times (the next upload writes them again). */
export function forgetUploadKeyTouches(store: Database, workspaceId: string): void {
  touched.get(store)?.delete(workspaceId);
}
