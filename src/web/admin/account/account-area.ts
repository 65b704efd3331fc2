import { changePassword } from '../../../domain/users/change-password.js';
import { html } from '../../html.js';
import type { AdminArea, AdminCall } from '../routes.js';
import { csrfField, field, formErrorsOf, isFormError, notice, type FormErrors } from '../ui.js';

function accountPage(call: AdminCall, errors: FormErrors = {}) {
  return call.render(Object.keys(errors).length ? 400 : 200, {
    title: 'Account',
    area: 'account',
    body: html`<div class="page-head"><div><h1>Account</h1><p class="muted">${call.user.email}</p></div></div>
${notice(call.query.notice)}
<div class="grid-2">
<section class="card" aria-labelledby="pw-heading">
<h2 id="pw-heading">Change password</h2>
<form method="post" action="/account/password" novalidate>
${csrfField(call.csrf)}
<input type="text" name="username" value="${call.user.email}" autocomplete="username" hidden>
${field({ name: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', errors })}
${field({ name: 'newPassword', label: 'New password', type: 'password', autocomplete: 'new-password', errors, hint: 'At least 10 characters. Your other sessions will be signed out.' })}
<button type="submit">Change password</button>
</form>
</section>
<section class="card" aria-labelledby="ws-heading">
<h2 id="ws-heading">Your workspaces</h2>
${call.workspaces.length
  ? html`<ul>${call.workspaces.map((w) => html`<li><a href="/w/${w.workspaceId}/scans">${w.workspaceName}</a> <span class="badge">${w.role}</span></li>`)}</ul>`
  : html`<p class="muted">You are not a member of any workspace yet. Ask an owner to invite you.</p>`}
<form method="post" action="/logout">${csrfField(call.csrf)}<button type="submit" class="secondary">Sign out</button></form>
</section>
</div>`,
  });
}

/** Account (CONTRACT §11): change password (other sessions end), sign out. */
export const accountArea: AdminArea = {
  routes: [
    { method: 'GET', path: '/account', access: 'signed-in', handler: async (call) => accountPage(call) },
    {
      method: 'POST',
      path: '/account/password',
      access: 'signed-in',
      handler: async (call) => {
        try {
          await changePassword({
            ctx: call.ctx,
            input: {
              userId: call.user.userId,
              currentPassword: call.body.currentPassword ?? '',
              newPassword: call.body.newPassword ?? '',
              keepSessionHash: call.user.sessionHash,
            },
          });
        } catch (error) {
          if (isFormError(error)) return accountPage(call, formErrorsOf(error, 'newPassword'));
          throw error;
        }
        return call.redirect('/account', 'password-changed');
      },
    },
  ],
};
