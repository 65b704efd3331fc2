import type { VerbArgs } from '../context.js';

export interface ScanRooms {
  scanId: string;
  receivedAt: string;
  /** `index` counts from 1, as `createQuote`'s and `addItemLines`'s `rooms` do. */
  rooms: Array<{ index: number; name: string }>;
}

/** The rooms of the scans attached to a lead, newest scan first: what the builder offers to price from. */
export async function roomsOfLeadScans({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; leadId: string }>): Promise<ScanRooms[]> {
  const scans = await ctx.store.db
    .selectFrom('scans')
    .select(['id', 'received_at'])
    .where('workspace_id', '=', input.workspaceId)
    .where('lead_id', '=', input.leadId)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (scans.length === 0) return [];
  const rooms = await ctx.store.db
    .selectFrom('scan_rooms')
    .select(['scan_id', 'idx', 'name'])
    .where(
      'scan_id',
      'in',
      scans.map((s) => s.id),
    )
    .orderBy('idx')
    .execute();
  return scans.map((s) => ({
    scanId: s.id,
    receivedAt: s.received_at,
    rooms: rooms.filter((r) => r.scan_id === s.id).map((r) => ({ index: Number(r.idx) + 1, name: r.name })),
  }));
}
