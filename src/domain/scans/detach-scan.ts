import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { scanNotFound } from './scan-in-workspace.js';

/** The scan goes back to the unattached ones; the lead and the scan both stay. Without `workspaceId`: the CLI. */
export async function detachScan({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; scanId: string }>): Promise<{ scanId: string }> {
  const updated = await ctx.store.writer.write(async (trx) => {
    let query = trx.updateTable('scans').set({ lead_id: null }).where('id', '=', input.scanId);
    if (input.workspaceId !== undefined) query = query.where('workspace_id', '=', input.workspaceId);
    const result = await query.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      const scan = await trx
        .selectFrom('scans')
        .select('workspace_id')
        .where('id', '=', input.scanId)
        .executeTakeFirstOrThrow();
      await recordAudit(trx, ctx, {
        action: 'scan.detached',
        workspaceId: scan.workspace_id,
        targetIds: [input.scanId],
      });
    }
    return result;
  });
  if (Number(updated.numUpdatedRows) !== 1) throw scanNotFound(input.scanId);
  return { scanId: input.scanId };
}
