import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { checkRole, type Role } from '../roles.js';
import { keepAnOwner } from './last-owner.js';

/** Members screen: make someone owner or member. The last owner cannot be demoted. */
export async function changeMemberRole({
  ctx,
  input,
}: WorkspaceVerbArgs<{ userId: string; role: string }>): Promise<{ userId: string; role: Role }> {
  const role = checkRole(input.role);
  await ctx.store.writer.write(async (trx) => {
    if (role !== 'owner')
      await keepAnOwner(trx, ctx.store.ops, {
        workspaceId: ctx.workspaceId,
        userId: input.userId,
        action: 'made a member',
      });
    const updated = await trx
      .updateTable('memberships')
      .set({ role })
      .where('workspace_id', '=', ctx.workspaceId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1)
      throw new AppError('member_not_found', 'No such member in this workspace');
    await recordAudit(trx, ctx, {
      action: 'member.role_changed',
      workspaceId: ctx.workspaceId,
      targetIds: [input.userId],
      details: { owner: role === 'owner' },
    });
  });
  return { userId: input.userId, role };
}
