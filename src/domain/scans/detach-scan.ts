import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { scanInWorkspace } from './scan-in-workspace.js';

/** The scan goes back to the unattached ones; the lead and the scan both stay. */
export async function detachScan({ ctx, input }: WorkspaceVerbArgs<{ scanId: string }>): Promise<{ scanId: string }> {
  await ctx.store.writer.write(async (trx) => {
    const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId, trx);
    await trx.updateTable('scans').set({ lead_id: null }).where('id', '=', scan.id).execute();
    await recordAudit(trx, ctx, { action: 'scan.detached', workspaceId: scan.workspaceId, targetIds: [scan.id] });
  });
  return { scanId: input.scanId };
}
