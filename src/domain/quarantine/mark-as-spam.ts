import { recordAudit } from '../audit/record-audit.js';
import type { Transaction } from 'kysely';
import type { WorkspaceVerbArgs } from '../context.js';
import { newId } from '../ids.js';
import { deleteLeadRows } from '../leads/delete-lead.js';
import { findLeadRow } from '../leads/find-lead.js';
import type { MovedBy } from '../stages/stage-history.js';
import type { LeadEventTable, LeadNoteTable, LeadTable, Schema, StageHistoryTable } from '../../storage/schema.js';

export const MARKED_SPAM_REASON = 'marked_spam';

/**
 * A lead as it was when marked as spam, kept with its Quarantine entry (`quarantine.lead_state`) so Restore brings
 * it back as it was: same id, fields, source, received time and request details, pipeline and stage, assignee,
 * follow-up day, notes, history and attached scans (docs/admin-app.md, "Mark as spam").
 */
export interface MarkedLeadState {
  lead: LeadTable;
  notes: LeadNoteTable[];
  stageHistory: StageHistoryTable[];
  events: LeadEventTable[];
  scanIds: string[];
}

/** The fields the Quarantine screen shows for a marked lead: the lead's own, as intake would have named them. */
function shownFields(lead: LeadTable): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of ['name', 'email', 'phone', 'address', 'notes'] as const) {
    const value = lead[key];
    if (value) fields[key] = value;
  }
  return { ...fields, ...(JSON.parse(lead.extra) as Record<string, string>) };
}

async function stateOf(trx: Transaction<Schema>, lead: LeadTable): Promise<MarkedLeadState> {
  const [notes, stageHistory, events, scans] = await Promise.all([
    trx.selectFrom('lead_notes').selectAll().where('lead_id', '=', lead.id).orderBy('created_at').execute(),
    trx.selectFrom('stage_history').selectAll().where('lead_id', '=', lead.id).orderBy('moved_at').execute(),
    trx.selectFrom('lead_events').selectAll().where('lead_id', '=', lead.id).orderBy('at').execute(),
    trx.selectFrom('scans').select('id').where('lead_id', '=', lead.id).execute(),
  ]);
  return { lead, notes, stageHistory, events, scanIds: scans.map((s) => s.id) };
}

/**
 * Moves a lead to Quarantine (`marked_spam`, with who did it), in one transaction: the entry keeps the lead as it
 * was, then the lead goes the way Delete removes one, so its unread mark and search entry go with it. The entry is
 * dated now (it arrived in Quarantine now, and is kept 30 days from then); the lead's own received time is kept
 * in its state and comes back with Restore.
 */
export async function markAsSpam({
  ctx,
  input,
}: WorkspaceVerbArgs<{ id: string; by: MovedBy }>): Promise<{ quarantineId: string; leadId: string }> {
  return ctx.store.writer.write(async (trx) => {
    const row = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.id });
    const state = await stateOf(trx, row);
    const quarantineId = newId('qr');
    await trx
      .insertInto('quarantine')
      .values({
        id: quarantineId,
        workspace_id: row.workspace_id,
        source_id: row.source_id,
        reason: MARKED_SPAM_REASON,
        detail: input.by.label,
        fields: JSON.stringify(shownFields(row)),
        received_at: ctx.clock.now().toISOString(),
        client_ip: row.client_ip,
        user_agent: row.user_agent,
        origin: row.origin,
        referer: row.referer,
        restored_lead_id: null,
        idempotency_key: row.idempotency_key,
        lead_state: JSON.stringify(state),
      })
      .execute();
    await deleteLeadRows(trx, row.id);
    await recordAudit(trx, ctx, {
      action: 'lead.marked_spam',
      workspaceId: row.workspace_id,
      targetIds: [row.id, quarantineId],
    });
    return { quarantineId, leadId: row.id };
  });
}
