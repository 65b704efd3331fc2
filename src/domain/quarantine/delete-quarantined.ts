import { recordAudit } from '../audit/record-audit.js';
import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';

/** Drops a quarantined submission for good (it was a bot after all). Another workspace's item is "not found". */
export async function deleteQuarantined({
  ctx,
  input,
}: WorkspaceVerbArgs<{ id: string }>): Promise<{ deleted: string }> {
  const result = await ctx.store.writer.write(async (trx) => {
    const deleted = await trx
      .deleteFrom('quarantine')
      .where('id', '=', input.id)
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) {
      await recordAudit(trx, ctx, {
        action: 'quarantine.deleted',
        workspaceId: ctx.workspaceId,
        targetIds: [input.id],
      });
    }
    return deleted;
  });
  if (Number(result.numDeletedRows) !== 1) {
    throw new AppError('quarantine_item_not_found', `No quarantined submission ${input.id} in this workspace`);
  }
  return { deleted: input.id };
}
