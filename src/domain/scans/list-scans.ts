import type { VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';

export interface ScanView {
  id: string;
  count: number;
  rooms: Array<{ index: number; name: string }>;
  byteSize: number;
  userAgent: string | null;
  receivedAt: string;
}

/** The workspace's Scans inbox, newest first. Raw bytes are not read here. */
export async function listScans({
  ctx,
  input,
}: VerbArgs<{ workspace: string; limit?: number; offset?: number }>): Promise<ScanView[]> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const { db } = ctx.store;
  const scans = await db
    .selectFrom('scans')
    .select(['id', 'room_count', 'byte_size', 'user_agent', 'received_at'])
    .where('workspace_id', '=', workspace.id)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit ?? 1000)
    .offset(input.offset ?? 0)
    .execute();
  if (scans.length === 0) return [];
  const rooms = await db
    .selectFrom('scan_rooms')
    .select(['scan_id', 'idx', 'name'])
    .where(
      'scan_id',
      'in',
      scans.map((s) => s.id),
    )
    .orderBy('scan_id')
    .orderBy('idx')
    .execute();
  const byScan = new Map<string, Array<{ index: number; name: string }>>();
  for (const room of rooms) {
    const list = byScan.get(room.scan_id) ?? [];
    list.push({ index: Number(room.idx), name: room.name });
    byScan.set(room.scan_id, list);
  }
  return scans.map((s) => ({
    id: s.id,
    count: Number(s.room_count),
    rooms: byScan.get(s.id) ?? [],
    byteSize: Number(s.byte_size),
    userAgent: s.user_agent,
    receivedAt: s.received_at,
  }));
}
