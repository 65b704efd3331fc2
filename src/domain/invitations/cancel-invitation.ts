import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';

/** An owner withdraws an invitation of their workspace that has not been accepted yet. */
export async function cancelInvitation({ ctx, input }: WorkspaceVerbArgs<{ invitationId: string }>): Promise<void> {
  const deleted = await ctx.store.writer.write(async (trx) => {
    const result = await trx
      .deleteFrom('invitations')
      .where('id', '=', input.invitationId)
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 1) {
      await recordAudit(trx, ctx, {
        action: 'member.invitation_cancelled',
        workspaceId: ctx.workspaceId,
        targetIds: [input.invitationId],
      });
    }
    return result;
  });
  if (Number(deleted.numDeletedRows) !== 1)
    throw new AppError('invitation_not_found', 'No such invitation in this workspace');
}
