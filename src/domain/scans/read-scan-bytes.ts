import { sql } from 'kysely';
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
    .select(['raw', 'raw_start', 'raw_end'])
    .where('scan_id', '=', input.scanId)
    .where('idx', '=', input.index)
    .executeTakeFirst();
  if (row && (row.raw_start === null || row.raw_start === undefined)) return Buffer.from(row.raw);
  if (row) {
    // Since migration 0005 a room is a byte range of the scan's body; only that range is read.
    const start = Number(row.raw_start);
    const length = Number(row.raw_end) - start;
    const slice = await ctx.store.db
      .selectFrom('scans')
      .select(sql<Uint8Array>`substr(raw, ${start + 1}, ${length})`.as('bytes'))
      .where('id', '=', input.scanId)
      .executeTakeFirstOrThrow();
    return Buffer.from(slice.bytes);
  }
  const scan = await ctx.store.db.selectFrom('scans').select('room_count').where('id', '=', input.scanId).executeTakeFirst();
  if (!scan) throw new AppError('scan_not_found', `No scan has the id ${input.scanId}`);
  throw new AppError(
    'room_not_found',
    `Scan ${input.scanId} has ${Number(scan.room_count)} room(s); index ${input.index} is out of range (rooms count from 0)`,
  );
}
