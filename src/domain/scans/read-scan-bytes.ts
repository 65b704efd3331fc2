import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';

/** The stored request body of a scan, exactly as it arrived. */
export async function readScanRaw({ ctx, input }: VerbArgs<{ scanId: string }>): Promise<Buffer> {
  const row = await ctx.store.db.selectFrom('scans').select('raw').where('id', '=', input.scanId).executeTakeFirst();
  if (!row) throw new AppError('scan_not_found', `No scan has the id ${input.scanId}`);
  return Buffer.from(row.raw);
}

/** One room's own byte slice of the stored body. */
export async function readScanRoom({ ctx, input }: VerbArgs<{ scanId: string; index: number }>): Promise<Buffer> {
  const row = await ctx.store.db
    .selectFrom('scan_rooms')
    .select('raw')
    .where('scan_id', '=', input.scanId)
    .where('idx', '=', input.index)
    .executeTakeFirst();
  if (row) return Buffer.from(row.raw);
  const scan = await ctx.store.db.selectFrom('scans').select('room_count').where('id', '=', input.scanId).executeTakeFirst();
  if (!scan) throw new AppError('scan_not_found', `No scan has the id ${input.scanId}`);
  throw new AppError(
    'room_not_found',
    `Scan ${input.scanId} has ${Number(scan.room_count)} room(s); index ${input.index} is out of range (rooms count from 0)`,
  );
}
