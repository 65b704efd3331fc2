import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { ScanView } from './list-scans.js';
import { leadsById } from './scan-lead.js';

/**
 * One scan of a workspace with its rooms. A scan of another workspace is "not found", exactly like a missing
 * one, so the web app's per-workspace check cannot be stepped around with another workspace's scan id.
 * `markOpened` takes its New mark away for the whole workspace (the scan's page; not the CLI or a download).
 */
export async function getScan({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; scanId: string; markOpened?: boolean }>): Promise<ScanView> {
  const { db } = ctx.store;
  const scan = await db
    .selectFrom('scans')
    .leftJoin('scan_unread', 'scan_unread.scan_id', 'scans.id')
    .leftJoin('scan_measurements', 'scan_measurements.scan_id', 'scans.id')
    .select([
      'scans.id',
      'scans.room_count',
      'scans.byte_size',
      'scans.user_agent',
      'scans.received_at',
      'scans.lead_id',
      'scan_unread.scan_id as unread_id',
      'scan_measurements.floor_area',
    ])
    .where('scans.id', '=', input.scanId)
    .where('scans.workspace_id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!scan) throw new AppError('scan_not_found', `No scan has the id ${input.scanId}`);
  const [rooms, leads] = await Promise.all([
    db.selectFrom('scan_rooms').select(['idx', 'name']).where('scan_id', '=', scan.id).orderBy('idx').execute(),
    leadsById(db, [scan.lead_id]),
  ]);
  if (scan.unread_id !== null && input.markOpened) {
    await ctx.store.writer.write((trx) => trx.deleteFrom('scan_unread').where('scan_id', '=', scan.id).execute());
  }
  return {
    id: scan.id,
    count: Number(scan.room_count),
    rooms: rooms.map((r) => ({ index: Number(r.idx), name: r.name })),
    byteSize: Number(scan.byte_size),
    userAgent: scan.user_agent,
    receivedAt: scan.received_at,
    isNew: scan.unread_id !== null,
    lead: (scan.lead_id && leads.get(scan.lead_id)) || null,
    floorArea: scan.floor_area === null ? null : Number(scan.floor_area),
  };
}
