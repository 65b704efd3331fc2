import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';

/** The one answer to a scan id that is missing, or of another workspace: the two are told apart by no one. */
export function scanNotFound(scanId: string): AppError {
  return new AppError('scan_not_found', `No scan has the id ${scanId}`);
}

/**
 * The one lookup of a scan by id, always within a workspace: a scan of another workspace is "not found", exactly like
 * a missing one, so isolation does not rest on each caller checking first. `db` is the caller's transaction, if any.
 */
export async function scanInWorkspace(
  ctx: DomainContext,
  workspaceId: string,
  scanId: string,
  db: Kysely<Schema> | Transaction<Schema> = ctx.store.db,
): Promise<{ id: string; workspaceId: string }> {
  const row = await db
    .selectFrom('scans')
    .select('id')
    .where('id', '=', scanId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw scanNotFound(scanId);
  return { id: row.id, workspaceId };
}

/** The workspace a scan belongs to, for the operator's CLI and the sweep, which act on every workspace. */
export async function workspaceOfScan(ctx: DomainContext, scanId: string): Promise<string> {
  const row = await ctx.store.db.selectFrom('scans').select('workspace_id').where('id', '=', scanId).executeTakeFirst();
  if (!row) throw scanNotFound(scanId);
  return row.workspace_id;
}

/**
 * Where a room's bytes are: since migration 0005 a room is a byte range of the scan's body; older rows keep their
 * own copy in `raw` (then this is null).
 */
export function roomRange(room: {
  raw_start?: number | null;
  raw_end?: number | null;
}): { start: number; end: number } | null {
  if (room.raw_start === null || room.raw_start === undefined) return null;
  return { start: Number(room.raw_start), end: Number(room.raw_end) };
}
