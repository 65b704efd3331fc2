import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';

/** The invitee says no: the invitation goes, nothing else changes. */
export async function declineInvitation({ ctx, input }: VerbArgs<{ userId: string; invitationId: string }>): Promise<void> {
  const deleted = await ctx.store.writer.write((trx) =>
    trx.deleteFrom('invitations').where('id', '=', input.invitationId).where('user_id', '=', input.userId).executeTakeFirst(),
  );
  if (Number(deleted.numDeletedRows) !== 1) throw new AppError('invitation_not_found', 'This invitation was withdrawn or is not for you');
}
