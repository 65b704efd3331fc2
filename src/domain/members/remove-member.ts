import { recordAudit } from '../audit/record-audit.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import type { DialectOps } from '../../storage/dialect-ops.js';
import { AppError } from '../errors.js';
import { keepAnOwner } from './last-owner.js';
import { forgetMemberNotifications } from '../notifications/forget-notifications.js';
import { unassignMember } from '../leads/unassign-member.js';

/**
 * Members screen and `leadscan user remove --workspace`: the membership goes. Access is checked against
 * memberships on every request, so the person's open sessions lose this workspace at once. Their leads in the
 * workspace become unassigned.
 */
export async function removeMember({ ctx, input }: WorkspaceVerbArgs<{ userId: string }>): Promise<void> {
  await ctx.store.writer.write(async (trx) => {
    await deleteMembership(trx, ctx.store.ops, { workspaceId: ctx.workspaceId, userId: input.userId, at: nowIso(ctx) });
    await recordAudit(trx, ctx, {
      action: 'member.removed',
      workspaceId: ctx.workspaceId,
      targetIds: [input.userId],
    });
  });
}

export async function deleteMembership(
  trx: Transaction<Schema>,
  ops: DialectOps,
  input: { workspaceId: string; userId: string; at?: string },
): Promise<void> {
  await keepAnOwner(trx, ops, { ...input, action: 'removed' });
  const deleted = await trx
    .deleteFrom('memberships')
    .where('workspace_id', '=', input.workspaceId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new AppError('member_not_found', 'No such member in this workspace');
  await forgetMemberNotifications(trx, input);
  await unassignMember(trx, {
    workspaceId: input.workspaceId,
    userId: input.userId,
    at: input.at ?? new Date().toISOString(),
  });
}
