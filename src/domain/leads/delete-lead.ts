import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { findLeadRow } from './find-lead.js';

/** Removes a lead for good (owner), with its history, in one transaction (a trigger drops its unread mark). */
export async function deleteLead({ ctx, input }: VerbArgs<{ workspaceId?: string; id: string }>): Promise<{ deleted: string }> {
  return ctx.store.writer.write(async (trx) => {
    const row = await findLeadRow(trx, { workspaceId: input.workspaceId, id: input.id });
    await trx.deleteFrom('stage_history').where('lead_id', '=', row.id).execute();
    await trx.deleteFrom('leads').where('id', '=', row.id).execute();
    await recordAudit(trx, ctx, { action: 'lead.deleted', workspaceId: row.workspace_id, targetIds: [row.id] });
    return { deleted: row.id };
  });
}
