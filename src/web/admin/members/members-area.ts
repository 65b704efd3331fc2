import { changeMemberRole } from '../../../domain/members/change-role.js';
import { cancelInvitation } from '../../../domain/invitations/cancel-invitation.js';
import { listPendingInvitations } from '../../../domain/invitations/list-invitations.js';
import { listMembers } from '../../../domain/members/list-members.js';
import { removeMember } from '../../../domain/members/remove-member.js';
import { createUser } from '../../../domain/users/create-user.js';
import type { AdminArea, PageForm, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { membersPage, type MembersPageInput } from './members-pages.js';

async function render(call: WorkspaceCall, status: number, input: Omit<MembersPageInput, 'members' | 'pending'> = {}) {
  const members = await listMembers({ ctx: call.ctx, input: {} });
  const pending = await listPendingInvitations({ ctx: call.ctx, input: {} });
  const emailOn = call.ctx.mail !== undefined;
  return call.render(status, {
    title: 'Members',
    area: 'members',
    body: membersPage(call, { members, pending, emailOn, ...input }),
  });
}

/** A refusal about a member row (the last owner, a vanished member) is shown on the list, not as an error page. */
const inviteValues = (call: WorkspaceCall) => ({
  email: call.body.email ?? '',
  name: call.body.name ?? '',
  role: call.body.role ?? 'member',
});

/** A refusal about a member's row (the last owner stays, an unknown role): said above the list. */
const rowProblem: PageForm<WorkspaceCall> = {
  field: 'role',
  only: ['last_owner', 'invalid_fields'],
  rerender: (call, { status, error }) => render(call, status, { problem: error.detail }),
};

/** Members (docs/admin-app.md), owner only. */
export const membersArea: AdminArea = {
  nav: { area: 'members', label: 'Members', path: 'members', access: 'owner' },
  routes: [
    { method: 'GET', path: '/w/:workspaceId/members', access: 'owner', handler: (call) => render(call, 200) },
    {
      method: 'POST',
      path: '/w/:workspaceId/members',
      access: 'owner',
      handler: async (call) => {
        const values = inviteValues(call);
        // The same verb as `leadscan user create`: a new account's link is emailed to them, or without email shown
        // once, on this answer only; an existing account gets an invitation it accepts itself, and no link.
        const invitedBy = { userId: call.user.userId, email: call.user.email };
        const invited = await createUser({
          ctx: call.ctx,
          input: {
            email: values.email,
            displayName: values.name,
            role: values.role,
            workspaceId: call.workspace.workspaceId,
            invitedBy,
          },
        });
        return render(call, 200, { invited });
      },
      form: {
        field: 'email',
        rerender: (call, { status, errors }) =>
          render(call, status, { inviteErrors: errors, inviteValues: inviteValues(call) }),
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/members/invitations/:invitationId/cancel',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        await cancelInvitation({ ctx: call.ctx, input: { invitationId: call.params.invitationId ?? '' } });
        return call.redirect(workspacePath(workspaceId, 'members'), 'invitation-cancelled');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/members/:userId/role',
      access: 'owner',
      handler: async (call) => {
        const input = {
          workspaceId: call.workspace.workspaceId,
          userId: call.params.userId ?? '',
          role: call.body.role ?? '',
        };
        await changeMemberRole({ ctx: call.ctx, input });
        return call.redirect(workspacePath(input.workspaceId, 'members'), 'role-changed');
      },
      form: rowProblem,
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/members/:userId/remove',
      access: 'owner',
      handler: async (call) => {
        const input = { workspaceId: call.workspace.workspaceId, userId: call.params.userId ?? '' };
        await removeMember({ ctx: call.ctx, input });
        // Someone who removed themselves has no business on this screen any more.
        if (input.userId === call.user.userId) return call.redirect('/');
        return call.redirect(workspacePath(input.workspaceId, 'members'), 'member-removed');
      },
      form: rowProblem,
    },
  ],
};
