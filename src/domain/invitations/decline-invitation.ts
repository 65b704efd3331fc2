import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';

/** The invitee says no: the invitation goes, nothing else changes. */
export async function declineInvitation({
  ctx,
  input,
}: VerbArgs<{ userId: string; invitationId: string }>): Promise<void> {
  const deleted = await ctx.store.writer.write(async (trx) => {
    const invitation = await trx
      .selectFrom('invitations')
      .select('workspace_id')
      .where('id', '=', input.invitationId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    const result = await trx
      .deleteFrom('invitations')
      .where('id', '=', input.invitationId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    if (invitation)
      await recordAudit(trx, ctx, {
        action: 'member.invitation_declined',
        workspaceId: invitation.workspace_id,
        targetIds: [input.userId],
      });
    return result;
  });
  if (Number(deleted.numDeletedRows) !== 1)
    throw new AppError('invitation_not_found', 'This invitation was withdrawn or is not for you');
}
