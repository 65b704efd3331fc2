import type { Transaction } from 'kysely';
import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import type { Schema } from '../../storage/schema.js';
import { findLeadRow } from './find-lead.js';

/**
 * The rows that go with a lead: its history, then the lead (notes and events cascade, a trigger drops its unread
 * mark, the search index follows the delete, attached scans are detached). Shared by Delete and Mark as spam.
 */
export async function deleteLeadRows(trx: Transaction<Schema>, leadId: string): Promise<void> {
  await trx.deleteFrom('stage_history').where('lead_id', '=', leadId).execute();
  await trx.deleteFrom('leads').where('id', '=', leadId).execute();
}

/** Removes a lead for good (owner), with its history, in one transaction. */
export async function deleteLead({ ctx, input }: WorkspaceVerbArgs<{ id: string }>): Promise<{ deleted: string }> {
  return ctx.store.writer.write(async (trx) => {
    const row = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.id });
    await deleteLeadRows(trx, row.id);
    await recordAudit(trx, ctx, { action: 'lead.deleted', workspaceId: row.workspace_id, targetIds: [row.id] });
    return { deleted: row.id };
  });
}
