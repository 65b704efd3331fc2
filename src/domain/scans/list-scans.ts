import type { VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { leadsById, type ScanLead } from './scan-lead.js';

export interface ScanView {
  id: string;
  count: number;
  rooms: Array<{ index: number; name: string }>;
  byteSize: number;
  userAgent: string | null;
  receivedAt: string;
  /** Nobody in the workspace has opened it yet. */
  isNew: boolean;
  /** The lead (job) it is attached to, if any. */
  lead: ScanLead | null;
  /** Square metres over its measured rooms; null until measured or when no room gave an area. */
  floorArea: number | null;
}

/** `unattached`: the scans still waiting for a job (the Scans screen's default); `all`: every scan. */
export type ScanListFilter = 'unattached' | 'all';

/** The workspace's Scans inbox, newest first. Raw bytes are not read here, and no body is parsed. */
export async function listScans({
  ctx,
  input,
}: VerbArgs<{ workspace: string; limit?: number; offset?: number; filter?: ScanListFilter }>): Promise<ScanView[]> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const { db } = ctx.store;
  let query = db
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
    .where('scans.workspace_id', '=', workspace.id);
  if (input.filter === 'unattached') query = query.where('scans.lead_id', 'is', null);
  const scans = await query
    .orderBy('scans.received_at', 'desc')
    .orderBy('scans.id', 'desc')
    .limit(input.limit ?? 1000)
    .offset(input.offset ?? 0)
    .execute();
  if (scans.length === 0) return [];
  const [rooms, leads] = await Promise.all([
    db
      .selectFrom('scan_rooms')
      .select(['scan_id', 'idx', 'name'])
      .where(
        'scan_id',
        'in',
        scans.map((s) => s.id),
      )
      .orderBy('scan_id')
      .orderBy('idx')
      .execute(),
    leadsById(
      db,
      scans.map((s) => s.lead_id),
    ),
  ]);
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
    isNew: s.unread_id !== null,
    lead: (s.lead_id && leads.get(s.lead_id)) || null,
    floorArea: s.floor_area === null ? null : Number(s.floor_area),
  }));
}
