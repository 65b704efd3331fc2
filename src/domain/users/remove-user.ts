import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { deleteMembership } from '../members/remove-member.js';
import { findUserByEmail } from './find-user.js';

/**
 * `leadscan user remove --email E [--workspace W]`: with a workspace, the membership only; with `workspaceId: null`,
 * the person entirely (memberships, sessions, links), unless they are the last owner somewhere.
 */
export async function removeUser({ ctx, input }: VerbArgs<{ email: string; workspaceId: string | null }>): Promise<{
  userId: string;
  email: string;
  removedFrom: string[] | 'everywhere';
}> {
  const user = await findUserByEmail({ ctx, input });
  const { workspaceId } = input;
  if (workspaceId) {
    await ctx.store.writer.write(async (trx) => {
      await deleteMembership(trx, ctx.store.ops, { workspaceId, userId: user.id });
      await recordAudit(trx, ctx, { action: 'member.removed', workspaceId, targetIds: [user.id] });
    });
    return { userId: user.id, email: user.email, removedFrom: [workspaceId] };
  }
  await ctx.store.writer.write(async (trx) => {
    const memberships = await trx
      .selectFrom('memberships')
      .select('workspace_id')
      .where('user_id', '=', user.id)
      .execute();
    for (const m of memberships) {
      await deleteMembership(trx, ctx.store.ops, { workspaceId: m.workspace_id, userId: user.id });
    }
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('setup_links').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('email_changes').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('invitations').where('user_id', '=', user.id).execute();
    // Emails not yet sent to them outside any workspace (a password reset, an email change) go too.
    await trx
      .deleteFrom('outbox')
      .where('user_id', '=', user.id)
      .where('state', 'in', ['pending', 'sending'])
      .execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    await recordAudit(trx, ctx, {
      action: 'user.removed',
      workspaceId: null,
      targetIds: [user.id],
      details: { memberships: memberships.length },
    });
  });
  return { userId: user.id, email: user.email, removedFrom: 'everywhere' };
}
