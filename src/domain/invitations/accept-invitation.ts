import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { mayJoin } from './list-invitations.js';

const notFound = () =>
  new AppError('invitation_not_found', 'This invitation was withdrawn, has expired or is not for you');

export const NOT_PROVEN_DETAIL =
  'Your password was set through a link someone else was shown, so this account cannot join another workspace yet. ' +
  'Ask the person who runs this Leadscan server for a new link (leadscan user reset-password --email …) and set ' +
  'your password through it; that proves the address is yours, and you can accept then.';

/**
 * The invitee accepts, signed in as the invited account. An account that has not proven its email may only join
 * the workspace that was shown its link: otherwise whoever set it up through someone else's invitation (the
 * "pre-registration" path) could accept on the real person's behalf.
 */
export async function acceptInvitation({
  ctx,
  input,
}: VerbArgs<{ userId: string; invitationId: string }>): Promise<{ workspaceId: string }> {
  const now = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    const invitation = await trx
      .selectFrom('invitations')
      .select(['workspace_id', 'role'])
      .where('id', '=', input.invitationId)
      .where('user_id', '=', input.userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!invitation) throw notFound();
    const user = await trx
      .selectFrom('users')
      .select(['email_proven_at', 'link_workspace_id'])
      .where('id', '=', input.userId)
      .executeTakeFirstOrThrow();
    if (!mayJoin(user, invitation.workspace_id)) throw new AppError('email_not_proven', NOT_PROVEN_DETAIL);
    const member = await trx
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', invitation.workspace_id)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    if (!member) {
      await trx
        .insertInto('memberships')
        .values({
          workspace_id: invitation.workspace_id,
          user_id: input.userId,
          role: invitation.role,
          created_at: now,
        })
        .execute();
    }
    await trx.deleteFrom('invitations').where('id', '=', input.invitationId).execute();
    await recordAudit(trx, ctx, {
      action: 'member.invitation_accepted',
      workspaceId: invitation.workspace_id,
      targetIds: [input.userId],
    });
    return { workspaceId: invitation.workspace_id };
  });
}
