import type { Kysely } from 'kysely';
import type { LeadEventTable, LeadNoteTable, LeadTable, Schema, StageHistoryTable } from '../../storage/schema.js';
import { toLeadView, type LeadView } from '../leads/lead-view.js';
import type { LeadEvent, LeadNote } from '../leads/lead-work.js';
import { stageMoveOf, type StageMove } from '../stages/stage-history.js';

/** The request details stored with a lead or a quarantined post. */
export interface RequestMeta {
  clientIp: string | null;
  userAgent: string | null;
  origin: string | null;
  referer: string | null;
}

export function requestMeta(row: Pick<LeadTable, 'client_ip' | 'user_agent' | 'origin' | 'referer'>): RequestMeta {
  return { clientIp: row.client_ip, userAgent: row.user_agent, origin: row.origin, referer: row.referer };
}

/**
 * A lead as a person's export shows it (docs/personal-data.md): its fields and request details, and what the team
 * wrote or did about it (internal notes newest first, stage moves and assignment or follow-up changes oldest first,
 * as the lead page shows them). The erasure deletes all of it with the lead.
 */
export interface ExportedLead extends LeadView, RequestMeta {
  idempotencyKey: string | null;
  internalNotes: LeadNote[];
  history: StageMove[];
  events: LeadEvent[];
}

/**
 * A lead's rows: read from the tables for a live lead, or the state a lead marked as spam keeps in its Quarantine
 * entry (`MarkedLeadState`), so both are exported through the same code and look the same.
 */
export interface LeadRecords {
  lead: Omit<LeadTable, 'search_text'>;
  notes: LeadNoteTable[];
  stageHistory: StageHistoryTable[];
  events: LeadEventTable[];
}

export async function readLeadRecords(db: Kysely<Schema>, lead: LeadTable): Promise<LeadRecords> {
  const [notes, stageHistory, events] = await Promise.all([
    db.selectFrom('lead_notes').selectAll().where('lead_id', '=', lead.id).execute(),
    db.selectFrom('stage_history').selectAll().where('lead_id', '=', lead.id).execute(),
    db.selectFrom('lead_events').selectAll().where('lead_id', '=', lead.id).execute(),
  ]);
  return { lead, notes, stageHistory, events };
}

/** Oldest first by a time, then by id (rows written in the same millisecond keep one order). */
function byTime<T extends { id: string }>(rows: T[], time: (row: T) => string): T[] {
  return [...rows].sort((a, b) => time(a).localeCompare(time(b)) || a.id.localeCompare(b.id));
}

export function toExportedLead(records: LeadRecords): ExportedLead {
  const { lead } = records;
  return {
    ...toLeadView(lead),
    ...requestMeta(lead),
    idempotencyKey: lead.idempotency_key,
    internalNotes: byTime(records.notes, (n) => n.created_at)
      .reverse()
      .map((n) => ({
        id: n.id,
        leadId: n.lead_id,
        authorUserId: n.author_user_id,
        authorLabel: n.author_label,
        text: n.body,
        createdAt: n.created_at,
      })),
    history: byTime(records.stageHistory, (h) => h.moved_at).map(stageMoveOf),
    events: byTime(records.events, (e) => e.at).map((e) => ({
      kind: e.kind === 'assigned' ? 'assigned' : 'follow_up',
      value: e.value,
      byUserId: e.by_user_id,
      byLabel: e.by_label,
      at: e.at,
    })),
  };
}
