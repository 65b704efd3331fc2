import { sql } from 'kysely';
import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { roomRange, scanInWorkspace } from './scan-in-workspace.js';

/** The stored request body of a scan of the workspace, exactly as it arrived. */
export async function readScanRaw({ ctx, input }: WorkspaceVerbArgs<{ scanId: string }>): Promise<Buffer> {
  const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId);
  const row = await ctx.store.db.selectFrom('scans').select('raw').where('id', '=', scan.id).executeTakeFirstOrThrow();
  return Buffer.from(row.raw);
}

/** One room's own byte slice of the stored body of a scan of the workspace. */
export async function readScanRoom({
  ctx,
  input,
}: WorkspaceVerbArgs<{ scanId: string; index: number }>): Promise<Buffer> {
  const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId);
  const row = await ctx.store.db
    .selectFrom('scan_rooms')
    .select(['raw', 'raw_start', 'raw_end'])
    .where('scan_id', '=', scan.id)
    .where('idx', '=', input.index)
    .executeTakeFirst();
  if (!row) {
    const { room_count } = await ctx.store.db
      .selectFrom('scans')
      .select('room_count')
      .where('id', '=', scan.id)
      .executeTakeFirstOrThrow();
    throw new AppError(
      'room_not_found',
      `Scan ${input.scanId} has ${Number(room_count)} room(s); index ${input.index} is out of range (rooms count ` +
        `from 0)`,
    );
  }
  const range = roomRange(row);
  if (!range) return Buffer.from(row.raw);
  // Only the room's range of the body is read.
  const slice = await ctx.store.db
    .selectFrom('scans')
    .select(sql<Uint8Array>`substr(raw, ${range.start + 1}, ${range.end - range.start})`.as('bytes'))
    .where('id', '=', scan.id)
    .executeTakeFirstOrThrow();
  return Buffer.from(slice.bytes);
}
