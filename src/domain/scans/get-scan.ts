import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { ScanView } from './list-scans.js';

/**
 * One scan of a workspace with its rooms. A scan of another workspace is "not found", exactly like a missing
 * one, so the web app's per-workspace check cannot be stepped around with another workspace's scan id.
 */
export async function getScan({ ctx, input }: VerbArgs<{ workspaceId: string; scanId: string }>): Promise<ScanView> {
  const { db } = ctx.store;
  const scan = await db
    .selectFrom('scans')
    .select(['id', 'room_count', 'byte_size', 'user_agent', 'received_at'])
    .where('id', '=', input.scanId)
    .where('workspace_id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!scan) throw new AppError('scan_not_found', `No scan has the id ${input.scanId}`);
  const rooms = await db.selectFrom('scan_rooms').select(['idx', 'name']).where('scan_id', '=', scan.id).orderBy('idx').execute();
  return {
    id: scan.id,
    count: Number(scan.room_count),
    rooms: rooms.map((r) => ({ index: Number(r.idx), name: r.name })),
    byteSize: Number(scan.byte_size),
    userAgent: scan.user_agent,
    receivedAt: scan.received_at,
  };
}
