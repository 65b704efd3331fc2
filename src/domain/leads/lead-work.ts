import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { newId } from '../ids.js';
import type { MovedBy } from '../stages/stage-history.js';

/** An internal note on a lead (docs/admin-app.md): written by a member or from the CLI, never by the lead. */
export interface LeadNote {
  id: string;
  leadId: string;
  authorUserId: string | null;
  authorLabel: string;
  text: string;
  createdAt: string;
}

/** An assignment or a follow-up change, kept beside the stage moves as the lead's history. */
export interface LeadEvent {
  kind: 'assigned' | 'follow_up';
  /** The assignee's label or the follow-up day; null for "nobody" and "cleared". */
  value: string | null;
  byUserId: string | null;
  byLabel: string;
  at: string;
}

export const NOTE_MAX = 5000;

export async function recordLeadEvent(
  trx: Transaction<Schema>,
  leadId: string,
  event: Omit<LeadEvent, 'byUserId' | 'byLabel'>,
  by: MovedBy,
): Promise<void> {
  await trx
    .insertInto('lead_events')
    .values({
      id: newId('lev'),
      lead_id: leadId,
      kind: event.kind,
      value: event.value,
      by_user_id: by.userId,
      by_label: by.label,
      at: event.at,
    })
    .execute();
}

/** A lead's notes, newest first. */
export async function notesOfLead(db: Kysely<Schema>, leadId: string): Promise<LeadNote[]> {
  const rows = await db
    .selectFrom('lead_notes')
    .selectAll()
    .where('lead_id', '=', leadId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    leadId: r.lead_id,
    authorUserId: r.author_user_id,
    authorLabel: r.author_label,
    text: r.body,
    createdAt: r.created_at,
  }));
}

/** A lead's assignment and follow-up changes, oldest first like its stage moves. */
export async function eventsOfLead(db: Kysely<Schema>, leadId: string): Promise<LeadEvent[]> {
  const rows = await db
    .selectFrom('lead_events')
    .selectAll()
    .where('lead_id', '=', leadId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    kind: r.kind === 'assigned' ? 'assigned' : 'follow_up',
    value: r.value,
    byUserId: r.by_user_id,
    byLabel: r.by_label,
    at: r.at,
  }));
}

/** How a member is named on a lead: their display name, else their email. */
export function memberLabel(user: { display_name: string; email: string }): string {
  return user.display_name.trim() || user.email;
}
