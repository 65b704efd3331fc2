import { recordAudit } from '../audit/record-audit.js';
import { AppError } from '../errors.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { newId } from '../ids.js';
import { HONEYPOT_FIELD, normalizeLeadBody } from '../lead-fields.js';
import { insertLead } from '../intake/store-lead.js';
import { quarantineCutoff } from '../intake/quarantine-retention.js';
import type { MarkedLeadState } from './mark-as-spam.js';
import { restoreMarkedLead } from './restore-marked-lead.js';
import type { Selectable, Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { QuarantineTable, Schema } from '../../storage/schema.js';

/** A caught post becomes a new lead: the same field rules as intake, minus the honeypot. */
async function restoreCatch(
  trx: Transaction<Schema>,
  ops: DialectOps,
  row: Selectable<QuarantineTable>,
): Promise<string> {
  const { [HONEYPOT_FIELD]: _honeypot, ...body } = JSON.parse(row.fields) as Record<string, unknown>;
  const fields = normalizeLeadBody(body);
  const leadId = newId('lead');
  await insertLead(trx, ops, {
    id: leadId,
    sourceId: row.source_id,
    fields,
    receivedAt: row.received_at,
    meta: { clientIp: row.client_ip, userAgent: row.user_agent, origin: row.origin, referer: row.referer },
    // The bot check never ran for a caught post; a person chose to restore it.
    botCheck: 'off',
    restoredFrom: row.id,
  });
  return leadId;
}

function quarantinedNotFound(id: string): AppError {
  return new AppError(
    'quarantine_item_not_found',
    `No quarantined submission has the id ${id}; see \`leadscan quarantine list\` (items are kept 30 days)`,
  );
}

/** The workspace of a quarantined submission, for the operator's CLI, which names any (and restores it inside it). */
export async function workspaceOfQuarantined(ctx: DomainContext, id: string): Promise<string> {
  const row = await ctx.store.db
    .selectFrom('quarantine')
    .select('workspace_id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw quarantinedNotFound(id);
  return row.workspace_id;
}

/**
 * Turns a quarantined submission into a lead (docs/api.md): a caught post as a new lead with the original received
 * time and request details, in the pipeline's first stage; a lead marked as spam as it was, under its own id
 * (restore-marked-lead.ts). One transaction marks both
 * sides, so a second restore, even a concurrent one (a double click), finds `restored_lead_id` set and is refused:
 * its lead insert rolls back with it, and exactly one lead exists.
 */
export async function restoreQuarantined({
  ctx,
  input,
}: WorkspaceVerbArgs<{ id: string }>): Promise<{ leadId: string }> {
  return ctx.store.writer.write(async (trx) => {
    const row = await trx
      .selectFrom('quarantine')
      .selectAll()
      .where('id', '=', input.id)
      // Within the context's workspace: another workspace's item is "not found".
      .where('workspace_id', '=', ctx.workspaceId)
      .where('received_at', '>=', quarantineCutoff(ctx.clock.now()))
      .executeTakeFirst();
    if (!row) throw quarantinedNotFound(input.id);
    if (row.restored_lead_id) {
      throw new AppError('already_restored', `${input.id} was already restored as lead ${row.restored_lead_id}`);
    }
    const leadId = row.lead_state
      ? await restoreMarkedLead(trx, ctx.store.ops, row.id, JSON.parse(row.lead_state) as MarkedLeadState)
      : await restoreCatch(trx, ctx.store.ops, row);
    const marked = await trx
      .updateTable('quarantine')
      .set({ restored_lead_id: leadId })
      .where('id', '=', row.id)
      .where('restored_lead_id', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) {
      throw new AppError('already_restored', `${input.id} was already restored`);
    }
    await recordAudit(trx, ctx, {
      action: 'quarantine.restored',
      workspaceId: row.workspace_id,
      targetIds: [row.id, leadId],
    });
    return { leadId };
  });
}
