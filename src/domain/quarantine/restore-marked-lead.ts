import type { Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { Schema } from '../../storage/schema.js';
import { insertLead } from '../intake/store-lead.js';
import type { BotCheckOutcome } from '../intake/verify-bot-check.js';
import type { MarkedLeadState } from './mark-as-spam.js';

/**
 * Brings back a lead marked as spam under its own id (docs/admin-app.md, "Mark as spam"), inside Restore's
 * transaction: the lead INSERT every path uses (so the search index, the unread mark and the duplicate keys follow),
 * then what the lead carried. Its pipeline and stage come back if both still exist, else it lands in its source's
 * pipeline's first stage, as a restored catch does; its assignee if still a member of the workspace; notes and
 * history as written; scans that were attached and have not been attached to another lead since.
 */
export async function restoreMarkedLead(
  trx: Transaction<Schema>,
  ops: DialectOps,
  quarantineId: string,
  state: MarkedLeadState,
): Promise<string> {
  const { lead } = state;
  await insertLead(trx, ops, {
    id: lead.id,
    sourceId: lead.source_id,
    fields: {
      name: lead.name,
      phone: lead.phone,
      email: lead.email,
      address: lead.address,
      notes: lead.notes,
      extra: JSON.parse(lead.extra) as Record<string, string>,
      pageUrl: lead.page_url ?? null,
    },
    receivedAt: lead.received_at,
    meta: { clientIp: lead.client_ip, userAgent: lead.user_agent, origin: lead.origin, referer: lead.referer },
    botCheck: lead.bot_check as BotCheckOutcome,
    restoredFrom: quarantineId,
  });

  const stage = await trx
    .selectFrom('stages')
    .innerJoin('pipelines', 'pipelines.id', 'stages.pipeline_id')
    .select('stages.key')
    .where('stages.pipeline_id', '=', lead.pipeline_id)
    .where('stages.key', '=', lead.stage)
    .where('pipelines.workspace_id', '=', lead.workspace_id)
    .executeTakeFirst();
  const assignee = lead.assignee_user_id
    ? await trx
        .selectFrom('memberships')
        .select('user_id')
        .where('workspace_id', '=', lead.workspace_id)
        .where('user_id', '=', lead.assignee_user_id)
        .executeTakeFirst()
    : undefined;
  await trx
    .updateTable('leads')
    .set({
      ...(stage ? { pipeline_id: lead.pipeline_id, stage: stage.key } : {}),
      assignee_user_id: assignee?.user_id ?? null,
      follow_up_on: lead.follow_up_on ?? null,
      idempotency_key: lead.idempotency_key,
    })
    .where('id', '=', lead.id)
    .execute();

  if (state.notes.length > 0) await trx.insertInto('lead_notes').values(state.notes).execute();
  if (state.stageHistory.length > 0) await trx.insertInto('stage_history').values(state.stageHistory).execute();
  if (state.events.length > 0) await trx.insertInto('lead_events').values(state.events).execute();
  if (state.scanIds.length > 0) {
    await trx
      .updateTable('scans')
      .set({ lead_id: lead.id })
      .where('id', 'in', state.scanIds)
      .where('lead_id', 'is', null)
      .execute();
  }
  return lead.id;
}
