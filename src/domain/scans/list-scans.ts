import type { Kysely } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { WorkspaceVerbArgs } from '../context.js';
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
}: WorkspaceVerbArgs<{ limit?: number; offset?: number; filter?: ScanListFilter }>): Promise<ScanView[]> {
  const { db } = ctx.store;
  let query = scanSummaries(db).where('scans.workspace_id', '=', ctx.workspaceId);
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
  return scans.map((s) => toScanView(s, byScan.get(s.id) ?? [], leads));
}

/** What a scan's row in a list or on its page is made of: never the bytes, never a parse of them. */
export function scanSummaries(db: Kysely<Schema>) {
  return db
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
    ]);
}

type ScanSummaryRow = Awaited<ReturnType<ReturnType<typeof scanSummaries>['executeTakeFirstOrThrow']>>;

export function toScanView(
  row: ScanSummaryRow,
  rooms: Array<{ index: number; name: string }>,
  leads: Map<string, ScanLead>,
): ScanView {
  return {
    id: row.id,
    count: Number(row.room_count),
    rooms,
    byteSize: Number(row.byte_size),
    userAgent: row.user_agent,
    receivedAt: row.received_at,
    isNew: row.unread_id !== null,
    lead: (row.lead_id && leads.get(row.lead_id)) || null,
    floorArea: row.floor_area === null ? null : Number(row.floor_area),
  };
}
