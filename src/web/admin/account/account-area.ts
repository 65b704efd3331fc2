import { acceptInvitation } from '../../../domain/invitations/accept-invitation.js';
import { declineInvitation } from '../../../domain/invitations/decline-invitation.js';
import { listInvitationsFor, type InvitationForMe } from '../../../domain/invitations/list-invitations.js';
import { changePassword } from '../../../domain/users/change-password.js';
import { changeDisplayName } from '../../../domain/users/change-display-name.js';
import { pendingEmailChange, requestEmailChange } from '../../../domain/users/request-email-change.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, AdminCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { notice } from '../notices.js';

interface AccountPageInput {
  errors?: FormErrors;
  /** What was typed into a refused form (never a password). */
  values?: { displayName?: string; newEmail?: string };
  /** The refusal's status (400 a bad field, 429 throttled); 200 otherwise. */
  status?: number;
  /** A refusal about an invitation (not proven yet), shown above the list. */
  problem?: string;
}

function invitationsSection(call: AdminCall, invitations: InvitationForMe[], problem?: string): SafeHtml | string {
  if (invitations.length === 0) return '';
  return html`<section class="card" aria-labelledby="inv-heading">
<h2 id="inv-heading">Invitations</h2>
${problem ? html`<p class="notice error" role="alert">${problem}</p>` : ''}
<ul class="plain">${invitations.map(
    (i) => html`<li class="invitation"><p>
    <strong>${i.workspaceName}</strong> <span class="badge">${i.role}</span><br><span class="muted small">Invited
    by ${i.invitedBy}; open until ${when(i.expiresAt)}</span></p>
${
  i.canAccept
    ? actionButton({
        action: `/account/invitations/${i.invitationId}/accept`,
        csrf: call.csrf,
        label: 'Accept',
        kind: 'primary',
      })
    : html`<p class="muted small">To accept, first prove this email address is yours: ask the person who runs this
    Leadscan server for a new password link and set your password through it.</p>`
}
${actionButton({
  action: `/account/invitations/${i.invitationId}/decline`,
  csrf: call.csrf,
  label: 'Decline',
  kind: 'secondary',
})}</li>`,
  )}</ul>
</section>`;
}

function profileSection(
  call: AdminCall,
  errors: FormErrors,
  values: AccountPageInput['values'] = {},
  pending: { newEmail: string; expiresAt: string } | null,
): SafeHtml {
  const emailOn = call.ctx.mail !== undefined;
  return html`<section class="card" aria-labelledby="name-heading">
<h2 id="name-heading">Name</h2>
<form method="post" action="/account/name" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'displayName',
  label: 'Name',
  value: values.displayName ?? call.user.displayName,
  autocomplete: 'name',
  maxlength: 100,
  required: true,
  errors,
  hint: 'How the other people of your workspaces see you.',
})}
<button type="submit">Save name</button>
</form>
</section>
<section class="card" aria-labelledby="email-heading">
<h2 id="email-heading">Email</h2>
<p>You sign in with <strong>${call.user.email}</strong>.</p>
${
  pending
    ? html`<p class="notice info" role="status">Waiting for confirmation: we sent a link
    to <strong>${pending.newEmail}</strong>. Your email changes when you open it
    (until ${when(pending.expiresAt)}).</p>`
    : ''
}
${
  emailOn
    ? html`<form method="post" action="/account/email" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'newEmail',
  label: 'New email',
  type: 'email',
  value: values.newEmail ?? '',
  autocomplete: 'email',
  required: true,
  errors,
  hint: 'We send a link to the new address; your email changes when you open it.',
})}
${field({
  name: 'emailPassword',
  label: 'Current password',
  type: 'password',
  autocomplete: 'current-password',
  required: true,
  errors,
})}
<button type="submit">Send confirmation link</button>
</form>`
    : html`${
        errors.newEmail ? html`<p class="field-error" id="f-newEmail-error" role="alert">${errors.newEmail}</p>` : ''
      }
<p class="muted small">Changing your email needs a link sent to the new address, and email is not set up on this server.
Ask the person who runs Leadscan to set up email (SMTP_URL and MAIL_FROM).</p>`
}
</section>`;
}

async function accountPage(call: AdminCall, input: AccountPageInput = {}) {
  const errors = input.errors ?? {};
  const invitations = await listInvitationsFor({ ctx: call.ctx, input: { userId: call.user.userId } });
  const pending = await pendingEmailChange({ ctx: call.ctx, input: { userId: call.user.userId } });
  const status = input.status ?? (Object.keys(errors).length ? 400 : input.problem ? 403 : 200);
  return call.render(status, {
    title: 'Account',
    area: 'account',
    body: html`<div class="page-head"><div><h1>Account</h1><p class="muted">${call.user.email}</p></div></div>
${notice(call.query.notice)}
${invitationsSection(call, invitations, input.problem)}
<div class="grid-2">
${profileSection(call, errors, input.values, pending)}
<section class="card" aria-labelledby="pw-heading">
<h2 id="pw-heading">Change password</h2>
<form method="post" action="/account/password" novalidate>
${csrfField(call.csrf)}
<input type="text" name="username" value="${call.user.email}" autocomplete="username" hidden>
${field({
  name: 'currentPassword',
  label: 'Current password',
  type: 'password',
  autocomplete: 'current-password',
  errors,
})}
${field({
  name: 'newPassword',
  label: 'New password',
  type: 'password',
  autocomplete: 'new-password',
  errors,
  hint: 'At least 10 characters. Your other sessions will be signed out.',
})}
<button type="submit">Change password</button>
</form>
</section>
<section class="card" aria-labelledby="ws-heading">
<h2 id="ws-heading">Your workspaces</h2>
${
  call.workspaces.length
    ? html`<ul>${call.workspaces.map(
        (w) =>
          html`<li><a href="${workspacePath(
            w.workspaceId,
            'leads',
          )}">${w.workspaceName}</a> <span class="badge">${w.role}</span></li>`,
      )}</ul>`
    : html`<p class="muted">You are not a member of any workspace yet. Ask an owner to invite you.</p>`
}
</section>
</div>`,
  });
}

/**
 * Account: pending invitations (accept, decline), your name, your email (confirmed by a link to the new address),
 * change password (other sessions end), sign out.
 */
export const accountArea: AdminArea = {
  routes: [
    { method: 'GET', path: '/account', access: 'signed-in', handler: async (call) => accountPage(call) },
    {
      method: 'POST',
      path: '/account/name',
      access: 'signed-in',
      handler: async (call) => {
        await changeDisplayName({
          ctx: call.ctx,
          input: { userId: call.user.userId, displayName: call.body.displayName ?? '' },
        });
        return call.redirect('/account', 'name-saved');
      },
      form: {
        field: 'displayName',
        rerender: (call, { errors }) =>
          accountPage(call, { errors, values: { displayName: call.body.displayName ?? '' } }),
      },
    },
    {
      method: 'POST',
      path: '/account/email',
      access: 'signed-in',
      handler: async (call) => {
        await requestEmailChange({
          ctx: call.ctx,
          input: {
            userId: call.user.userId,
            newEmail: call.body.newEmail ?? '',
            currentPassword: call.body.emailPassword ?? '',
            ip: call.request.ip,
          },
        });
        return call.redirect('/account', 'email-change-sent');
      },
      form: {
        field: 'newEmail',
        // A throttled check is said next to the password, where the guesses were typed.
        fields: { rate_limited: 'emailPassword' },
        rerender: (call, { status, errors }) =>
          accountPage(call, { status, errors, values: { newEmail: call.body.newEmail ?? '' } }),
      },
    },
    {
      method: 'POST',
      path: '/account/password',
      access: 'signed-in',
      handler: async (call) => {
        await changePassword({
          ctx: call.ctx,
          input: {
            userId: call.user.userId,
            currentPassword: call.body.currentPassword ?? '',
            newPassword: call.body.newPassword ?? '',
            keepSessionHash: call.user.sessionHash,
          },
        });
        return call.redirect('/account', 'password-changed');
      },
      form: {
        field: 'newPassword',
        // A throttled check is said next to the current password, where the guesses were typed.
        fields: { rate_limited: 'currentPassword' },
        rerender: (call, { status, errors }) => accountPage(call, { status, errors }),
      },
    },
    {
      method: 'POST',
      path: '/account/invitations/:invitationId/accept',
      access: 'signed-in',
      handler: async (call) => {
        const { workspaceId } = await acceptInvitation({
          ctx: call.ctx,
          input: { userId: call.user.userId, invitationId: call.params.invitationId ?? '' },
        });
        return call.redirect(workspacePath(workspaceId, 'leads'));
      },
      // Not proven yet: said above the invitations, with the page's 403.
      form: {
        field: 'invitation',
        only: ['email_not_proven'],
        rerender: (call, { error }) => accountPage(call, { problem: error.detail }),
      },
    },
    {
      method: 'POST',
      path: '/account/invitations/:invitationId/decline',
      access: 'signed-in',
      handler: async (call) => {
        await declineInvitation({
          ctx: call.ctx,
          input: { userId: call.user.userId, invitationId: call.params.invitationId ?? '' },
        });
        return call.redirect('/account', 'invitation-declined');
      },
    },
  ],
};
