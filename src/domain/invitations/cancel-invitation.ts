import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';

/** An owner withdraws an invitation of their workspace that has not been accepted yet. */
export async function cancelInvitation({ ctx, input }: VerbArgs<{ workspaceId: string; invitationId: string }>): Promise<void> {
  const deleted = await ctx.store.writer.write((trx) =>
    trx.deleteFrom('invitations').where('id', '=', input.invitationId).where('workspace_id', '=', input.workspaceId).executeTakeFirst(),
  );
  if (Number(deleted.numDeletedRows) !== 1) throw new AppError('invitation_not_found', 'No such invitation in this workspace');
}
