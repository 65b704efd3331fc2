import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { scanInWorkspace } from './scan-in-workspace.js';

/**
 * A scan belongs to a job: attach it to a lead of the same workspace (members may). Attaching again moves it to
 * the other lead. A lead or scan of another workspace is "not found", like a missing one.
 */
export async function attachScan({
  ctx,
  input,
}: WorkspaceVerbArgs<{ scanId: string; leadId: string }>): Promise<{ scanId: string; leadId: string }> {
  await ctx.store.writer.write(async (trx) => {
    const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId, trx);
    const lead = await trx
      .selectFrom('leads')
      .select('id')
      .where('id', '=', input.leadId)
      .where('workspace_id', '=', scan.workspaceId)
      .executeTakeFirst();
    if (!lead) throw new AppError('lead_not_found', `No lead has the id ${input.leadId} in the scan's workspace`);
    await trx.updateTable('scans').set({ lead_id: lead.id }).where('id', '=', scan.id).execute();
    await recordAudit(trx, ctx, {
      action: 'scan.attached',
      workspaceId: scan.workspaceId,
      targetIds: [scan.id, lead.id],
    });
  });
  return { scanId: input.scanId, leadId: input.leadId };
}
