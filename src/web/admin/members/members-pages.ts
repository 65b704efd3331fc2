import type { CreatedUser } from '../../../domain/users/create-user.js';
import type { MemberView } from '../../../domain/members/list-members.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminCall } from '../routes.js';
import { workspacePath } from '../routes.js';
import { actionButton, csrfField, field, notice, when, type FormErrors } from '../ui.js';

export interface MembersPageInput {
  members: MemberView[];
  invited?: CreatedUser;
  inviteErrors?: FormErrors;
  inviteValues?: { email?: string; role?: string };
  /** A refusal about a row (last owner…), shown above the list. */
  problem?: string;
}

function roleSelect(name: string, id: string, selected: string): SafeHtml {
  return html`<select id="${id}" name="${name}">${['member', 'owner'].map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${r === 'owner' ? 'Owner' : 'Member'}</option>`)}</select>`;
}

/** Members (CONTRACT §11), owner only: invite with a one-time link, change role, remove. */
export function membersPage(call: AdminCall, input: MembersPageInput): SafeHtml {
  const base = workspacePath(call.workspace!.workspaceId, 'members');
  const errors = input.inviteErrors ?? {};
  return html`<div class="page-head"><div><h1>Members</h1><p class="muted">Who can sign in to ${call.workspace!.workspaceName}. Owners can do everything; members work the inboxes and scans.</p></div></div>
${notice(call.query.notice)}
${input.problem ? html`<p class="notice error" role="alert">${input.problem}</p>` : ''}
${input.invited
  ? html`<section class="notice info" aria-labelledby="invited-heading">
<h2 id="invited-heading">${input.invited.email} was added as ${input.invited.role}</h2>
${input.invited.setupUrl
  ? html`<p>Send them this one-time link to set their password. It works once and expires ${html`${when(input.invited.expiresAt)}`}; it is not shown again.</p>
<div class="copy-row"><code class="copy-value" id="invite-link">${input.invited.setupUrl}</code>
<button type="button" class="secondary" data-copy-target="#invite-link" data-status="#invite-status" hidden>Copy</button></div>
<p class="status-line" id="invite-status" role="status" aria-live="polite"></p>`
  : html`<p>They already have a password and can sign in now.</p>`}
</section>`
  : ''}
<section class="card table-card" aria-labelledby="members-heading">
<h2 id="members-heading" class="offscreen">Members</h2>
<table class="list" id="members">
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
<tbody>${input.members.map(
    (m) => html`<tr>
<td data-label="Person"><strong>${m.email}</strong>${m.userId === call.user.userId ? html` <span class="badge">you</span>` : ''}${m.passwordSet ? '' : html` <span class="badge">invited</span>`}<br><span class="muted small">${m.displayName}</span></td>
<td data-label="Role"><form class="actions" method="post" action="${base}/${m.userId}/role">${csrfField(call.csrf)}<label class="offscreen" for="role-${m.userId}">Role of ${m.email}</label>${roleSelect('role', `role-${m.userId}`, m.role)}<button type="submit" class="secondary">Change role</button></form></td>
<td data-label="Since">${when(m.since)}</td>
<td>${actionButton({ action: `${base}/${m.userId}/remove`, csrf: call.csrf, label: 'Remove', kind: 'danger', confirm: `Remove ${m.email} from ${call.workspace!.workspaceName}? They lose access at once.` })}</td>
</tr>`,
  )}</tbody></table>
</section>
<section class="card" aria-labelledby="invite-heading">
<h2 id="invite-heading">Invite</h2>
<p class="muted small">You get a one-time link to send them; they choose their own password.</p>
<form method="post" action="${base}" novalidate>
${csrfField(call.csrf)}
${field({ name: 'email', label: 'Email', type: 'email', value: input.inviteValues?.email ?? '', errors, autocomplete: 'off' })}
<div class="field"><label for="f-role">Role</label>${roleSelect('role', 'f-role', input.inviteValues?.role ?? 'member')}</div>
<button type="submit">Invite</button>
</form>
</section>`;
}
