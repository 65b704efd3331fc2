import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { MovedBy } from '../stages/stage-history.js';
import { emailKey } from '../email-address.js';
import { findLeadRow } from './find-lead.js';
import { memberLabel, recordLeadEvent } from './lead-work.js';

/** Who a lead goes to: a user by id (the page's menu), by email (the CLI), or nobody. */
export type AssigneeRef = { userId: string } | { email: string } | null;

export interface Assignment {
  leadId: string;
  assignee: { userId: string; email: string; label: string } | null;
  /** False when the lead already had this assignee: nothing was written. */
  changed: boolean;
}

/**
 * Assigns a lead to a member of the lead's own workspace, or to nobody, and records it in the lead's history, in
 * one transaction. A person who is not a member of that workspace (another workspace's, or nobody's) is refused
 * as `member_not_found`, the same answer whether the account exists or not.
 */
export async function assignLead({
  ctx,
  input,
}: WorkspaceVerbArgs<{ leadId: string; assignee: AssigneeRef; by: MovedBy }>): Promise<Assignment> {
  return ctx.store.writer.write(async (trx) => {
    const lead = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.leadId });
    let assignee: Assignment['assignee'] = null;
    if (input.assignee !== null) {
      const ref = input.assignee;
      const member = await trx
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['users.id', 'users.email', 'users.display_name'])
        .where('memberships.workspace_id', '=', lead.workspace_id)
        .$if('userId' in ref, (q) => q.where('users.id', '=', (ref as { userId: string }).userId))
        .$if('email' in ref, (q) => q.where('users.email_key', '=', emailKey((ref as { email: string }).email)))
        .executeTakeFirst();
      if (!member) throw new AppError('member_not_found', "That person is not a member of the lead's workspace");
      assignee = { userId: member.id, email: member.email, label: memberLabel(member) };
    }
    const before = lead.assignee_user_id ?? null;
    if (before === (assignee?.userId ?? null)) return { leadId: lead.id, assignee, changed: false };
    await trx
      .updateTable('leads')
      .set({ assignee_user_id: assignee?.userId ?? null })
      .where('id', '=', lead.id)
      .execute();
    await recordLeadEvent(
      trx,
      lead.id,
      { kind: 'assigned', value: assignee?.label ?? null, at: nowIso(ctx) },
      input.by,
    );
    await recordAudit(trx, ctx, {
      action: 'lead.assigned',
      workspaceId: lead.workspace_id,
      targetIds: [lead.id, ...(assignee ? [assignee.userId] : [])],
    });
    return { leadId: lead.id, assignee, changed: true };
  });
}
