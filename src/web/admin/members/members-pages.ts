import type { CreatedUser } from '../../../domain/users/create-user.js';
import type { PendingInvitation } from '../../../domain/invitations/list-invitations.js';
import type { MemberView } from '../../../domain/members/list-members.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { notice } from '../notices.js';

export interface MembersPageInput {
  members: MemberView[];
  pending: PendingInvitation[];
  invited?: CreatedUser;
  inviteErrors?: FormErrors;
  inviteValues?: { email?: string; name?: string; role?: string };
  /** Email is configured: invitations are emailed rather than handed to the inviter. */
  emailOn?: boolean;
  /** A refusal about a row (last owner…), shown above the list. */
  problem?: string;
}

function roleSelect(name: string, id: string, selected: string): SafeHtml {
  return html`<select id="${id}" name="${name}">${['member', 'owner'].map(
    (r) =>
      html`<option value="${r}"${r === selected ? html` selected` : ''}>${r === 'owner' ? 'Owner' : 'Member'}</option>`,
  )}</select>`;
}

/** Members (docs/admin-app.md), owner only: invite with a one-time link, change role, remove. */
export function membersPage(call: WorkspaceCall, input: MembersPageInput): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, 'members');
  const errors = input.inviteErrors ?? {};
  return html`<div class="page-head"><div><h1>Members</h1>
  <p class="muted">Who can sign in to ${call.workspace.workspaceName}. Owners can do everything; members work the
  inboxes and scans.</p></div></div>
${notice(call.query.notice)}
${input.problem ? html`<p class="notice error" role="alert">${input.problem}</p>` : ''}
${input.invited ? invitedNotice(input.invited) : ''}
<section class="card table-card" aria-labelledby="members-heading">
<h2 id="members-heading" class="offscreen">Members</h2>
<table class="list" id="members">
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col">
<span class="offscreen">Actions</span></th></tr></thead>
<tbody>${input.members.map(
    (m) => html`<tr>
<td data-label="Person"><strong>${m.displayName}</strong>${
      m.userId === call.user.userId ? html` <span class="badge">you</span>` : ''
    }${
      m.passwordSet ? '' : html` <span class="badge">invited</span>`
    }<br><span class="muted small">${m.email}</span></td>
<td data-label="Role"><form class="actions"
  method="post" action="${base}/${m.userId}/role">${csrfField(call.csrf)}<label class="offscreen"
    for="role-${m.userId}">Role of ${m.email}</label>${roleSelect(
      'role',
      `role-${m.userId}`,
      m.role,
    )}<button type="submit" class="secondary">Change role</button></form></td>
<td data-label="Since">${when(m.since)}</td>
<td>${actionButton({
      action: `${base}/${m.userId}/remove`,
      csrf: call.csrf,
      label: 'Remove',
      kind: 'danger',
      confirm: `Remove ${m.email} from ${call.workspace.workspaceName}? They lose access at once.`,
    })}</td>
</tr>`,
  )}</tbody></table>
</section>
${
  input.pending.length
    ? html`<section class="card table-card" aria-labelledby="pending-heading">
<h2 id="pending-heading">Waiting to accept</h2>
<table class="list" id="pending">
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Invited</th><th scope="col">
<span class="offscreen">Actions</span></th></tr></thead>
<tbody>${input.pending.map(
        (p) => html`<tr>
<td data-label="Person"><strong>${p.email}</strong><br><span class="muted small">by ${p.invitedBy}</span></td>
<td data-label="Role">${p.role === 'owner' ? 'Owner' : 'Member'}</td>
<td data-label="Invited">${when(p.createdAt)}</td>
<td>${actionButton({
          action: `${base}/invitations/${p.invitationId}/cancel`,
          csrf: call.csrf,
          label: 'Withdraw',
          kind: 'secondary',
          confirm: `Withdraw the invitation for ${p.email}?`,
        })}</td>
</tr>`,
      )}</tbody></table>
</section>`
    : ''
}
<section class="card" aria-labelledby="invite-heading">
<h2 id="invite-heading">Invite</h2>
<p class="muted small">${
    input.emailOn
      ? 'We email them: someone new gets a one-time link to choose their own password; someone who already has an ' +
        'account here gets an invitation they accept after signing in.'
      : 'Someone new gets an account and you get a one-time link to send them; they choose their own password. ' +
        'Someone who already has an account here gets an invitation they accept after signing in.'
  }</p>
<form method="post" action="${base}" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'email',
  label: 'Email',
  type: 'email',
  value: input.inviteValues?.email ?? '',
  errors,
  autocomplete: 'off',
})}
${field({
  name: 'name',
  label: 'Name',
  value: input.inviteValues?.name ?? '',
  errors,
  autocomplete: 'off',
  maxlength: 100,
  hint: 'Optional. How the app shows them; they can change it. Someone who already has an account keeps their own.',
})}
<div class="field"><label for="f-role">Role</label>${roleSelect(
    'role',
    'f-role',
    input.inviteValues?.role ?? 'member',
  )}</div>
<button type="submit">Invite</button>
</form>
</section>`;
}

/**
 * The answer to an invite. A new account's link is shown once. For an email that has an account, the answer is
 * the same whether or not its password is set, and carries no link: the account is not the inviter's to hand out.
 */
function invitedNotice(invited: CreatedUser): SafeHtml {
  if (invited.emailed) {
    // One answer for both outcomes: whether the address has an account stays between the server and its owner.
    return html`<section class="notice info" aria-labelledby="invited-heading">
<h2 id="invited-heading">We emailed an invitation to ${invited.email}</h2>
<p>They join as ${invited.role}. Someone new chooses their password through the link in the email (it works once, for 24
hours); someone who already has an account here accepts the invitation after signing in.</p>
</section>`;
  }
  if (invited.outcome === 'invited' || !invited.setupUrl) {
    return html`<section class="notice info" aria-labelledby="invited-heading">
<h2 id="invited-heading">${invited.email} is invited as ${invited.role}</h2>
<p>They already have a Leadscan account on this server. The invitation waits on their Account page; they join when they
sign in and accept it. It is listed below until then.</p>
</section>`;
  }
  return html`<section class="notice info" aria-labelledby="invited-heading">
<h2 id="invited-heading">${invited.email} was added as ${invited.role}</h2>
<p>Send them this one-time link to set their password. It works once and expires ${html`${when(invited.expiresAt)}`}; it
is not shown again.</p>
<div class="copy-row"><code class="copy-value" id="invite-link">${invited.setupUrl}</code>
<button type="button" class="secondary" data-copy-target="#invite-link" data-status="#invite-status"
  hidden>Copy</button></div>
<p class="status-line" id="invite-status" role="status" aria-live="polite"></p>
</section>`;
}
