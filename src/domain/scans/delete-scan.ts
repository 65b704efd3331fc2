import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { scanInWorkspace } from './scan-in-workspace.js';

/** The Scans screen's Delete (owner): the scan and its rooms' bytes, in one transaction. */
export async function deleteScan({ ctx, input }: WorkspaceVerbArgs<{ scanId: string }>): Promise<{ id: string }> {
  await ctx.store.writer.write(async (trx) => {
    const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId, trx);
    await trx.deleteFrom('scan_rooms').where('scan_id', '=', scan.id).execute();
    await trx.deleteFrom('scans').where('id', '=', scan.id).execute();
    await recordAudit(trx, ctx, { action: 'scan.deleted', workspaceId: ctx.workspaceId, targetIds: [scan.id] });
  });
  return { id: input.scanId };
}
