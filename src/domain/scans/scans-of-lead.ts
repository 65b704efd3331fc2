import type { WorkspaceVerbArgs } from '../context.js';

export interface LeadScan {
  id: string;
  receivedAt: string;
  roomCount: number;
  floorArea: number | null;
}

/** The scans attached to a lead, newest first: the lead's page lists them with their totals. */
export async function scansOfLead({ ctx, input }: WorkspaceVerbArgs<{ leadId: string }>): Promise<LeadScan[]> {
  const rows = await ctx.store.db
    .selectFrom('scans')
    .leftJoin('scan_measurements', 'scan_measurements.scan_id', 'scans.id')
    .select(['scans.id', 'scans.received_at', 'scans.room_count', 'scan_measurements.floor_area'])
    .where('scans.workspace_id', '=', ctx.workspaceId)
    .where('scans.lead_id', '=', input.leadId)
    .orderBy('scans.received_at', 'desc')
    .orderBy('scans.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    roomCount: Number(r.room_count),
    floorArea: r.floor_area === null ? null : Number(r.floor_area),
  }));
}
