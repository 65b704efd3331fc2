import { html } from '../../html.js';
import { shell } from '../layout.js';
import { field, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

/** `/login` (docs/security.md: fields Email and Password, button Sign in). */
export function loginPage(input: { email?: string; errors?: FormErrors; notice?: string; next?: string }): string {
  const errors = input.errors ?? {};
  return shell({
    title: 'Sign in',
    body: html`<div class="auth">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>Leadscan</p>
<div class="card">
<h1>Sign in</h1>
${notice(input.notice)}
${errors.form ? html`<p class="notice error" role="alert" id="login-error">${errors.form}</p>` : ''}
<form method="post" action="/login${input.next ? `?next=${encodeURIComponent(input.next)}` : ''}" novalidate>
${field({
  name: 'email',
  label: 'Email',
  type: 'email',
  value: input.email ?? '',
  autocomplete: 'username',
  required: true,
  errors,
})}
${field({
  name: 'password',
  label: 'Password',
  type: 'password',
  autocomplete: 'current-password',
  required: true,
  errors,
})}
<button type="submit">Sign in</button>
</form>
<p><a href="/forgot-password">Forgot password?</a></p>
</div>
</div>`,
  });
}

/** Where a new link comes from without email; `cli` is how the CLI is run on this server (CLI_COMMAND). */
const resetElsewhere = (
  cli: string,
) => html`<p>Email is not set up on this server, so we cannot send you a link. Ask an owner of your workspace for a new
link, or whoever runs the server to run <code>${cli} user reset-password --email you@example.com</code>.</p>`;

/**
 * `/forgot-password`: with email on, a form asking for the email; `sent` is the one answer to every request, for
 * an address with an account or without one, throttled or not. With email off, where a new link comes from.
 */
export function forgotPasswordPage(input: {
  emailOn: boolean;
  /** How the CLI is run on this server (CLI_COMMAND), for the no-email way to a new link. */
  cli: string;
  sent?: boolean;
  email?: string;
  errors?: FormErrors;
}): string {
  const errors = input.errors ?? {};
  const body = !input.emailOn
    ? resetElsewhere(input.cli)
    : input.sent
      ? html`<p class="notice ok" role="status">If an account exists for that address, we sent a link to choose a
      new password. It works once, for 24 hours. Check your inbox (and the spam folder).</p>`
      : html`<p>Enter the email you sign in with. If it has an account, we email you a link to choose a
      new password.</p>
<form method="post" action="/forgot-password" novalidate>
${field({
  name: 'email',
  label: 'Email',
  type: 'email',
  value: input.email ?? '',
  autocomplete: 'username',
  required: true,
  errors,
})}
<button type="submit">Send link</button>
</form>`;
  return shell({
    title: 'Forgot password',
    body: html`<div class="auth">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>Leadscan</p>
<div class="card">
<h1>Forgot password</h1>
${body}
<p><a href="/login">Back to sign in</a></p>
</div>
</div>`,
  });
}

/**
 * `/confirm-email/{token}`: the link sent to a new address; the button confirms (the token in the URL is the secret).
 */
export function confirmEmailPage(input: { email: string; newEmail: string; errors?: FormErrors }): string {
  return shell({
    title: 'Confirm your new email',
    body: html`<div class="auth"><div class="card">
<h1>Confirm your new email</h1>
<p>Change the email of the account <strong>${input.email}</strong> to <strong>${input.newEmail}</strong>? You will sign
in with the new address from then on.</p>
${input.errors?.form ? html`<p class="notice error" role="alert">${input.errors.form}</p>` : ''}
<form method="post" novalidate><button type="submit">Confirm new email</button></form>
</div></div>`,
  });
}

export function emailChangedPage(input: { newEmail: string }): string {
  return shell({
    title: 'Email changed',
    body: html`<div class="auth"><div class="card">
<h1>Email changed</h1>
<p class="notice ok" role="status">Your account's email is now <strong>${input.newEmail}</strong>. Sign in with it from
now on.</p>
<p><a href="/login">Go to sign in</a></p>
</div></div>`,
  });
}

export function emailLinkUnusablePage(): string {
  return shell({
    title: 'Link used or expired',
    body: html`<div class="auth"><div class="card">
<h1>This link cannot be used</h1>
<p>It was already used, a newer link replaced it, or it is older than 24 hours. Your email has not changed by this
link.</p>
<p>Sign in and ask for the change again on your Account page.</p>
<p><a href="/login">Go to sign in</a></p>
</div></div>`,
  });
}

/**
 * `/setup/{token}`: the one-time link's page where a person sets their password. For the first start's
 * admin@localhost (`firstOwner`) it also asks for the business's name (the workspace's, which heads the public
 * form) and the owner's real email and name.
 */
export function setupPage(input: {
  email: string;
  firstOwner?: boolean;
  values?: { email?: string; displayName?: string; businessName?: string };
  errors?: FormErrors;
}): string {
  const errors = input.errors ?? {};
  return shell({
    title: 'Set your password',
    body: html`<div class="auth">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>Leadscan</p>
<div class="card">
<h1>Set your password</h1>
${
  input.firstOwner
    ? html`<p>You are the first owner of this Leadscan. Tell us your business's name, your email and your name: you sign
    in with this email from now on. This link works once.</p>`
    : html`<p>For <strong>${input.email}</strong>. This link works once.</p>`
}
<form method="post" novalidate>
${
  input.firstOwner
    ? html`${field({
        name: 'businessName',
        label: 'Business name',
        value: input.values?.businessName ?? '',
        autocomplete: 'organization',
        maxlength: 120,
        required: true,
        errors,
        hint: 'Heads your public lead form and names your workspace. You can change it later in Settings.',
      })}
${field({
  name: 'email',
  label: 'Email',
  type: 'email',
  value: input.values?.email ?? '',
  autocomplete: 'username',
  required: true,
  errors,
})}
${field({
  name: 'displayName',
  label: 'Name',
  value: input.values?.displayName ?? '',
  autocomplete: 'name',
  maxlength: 100,
  required: true,
  errors,
})}`
    : html`<input type="text" name="username" value="${input.email}" autocomplete="username" hidden>`
}
${field({
  name: 'password',
  label: 'New password',
  type: 'password',
  autocomplete: 'new-password',
  required: true,
  errors,
  hint: 'At least 10 characters. A few unrelated words are easy to remember and hard to guess.',
})}
${field({
  name: 'repeat',
  label: 'Repeat the password',
  type: 'password',
  autocomplete: 'new-password',
  required: true,
  errors,
})}
<button type="submit">Set password</button>
</form>
</div>
</div>`,
  });
}

export function setupUnusablePage(cli: string): string {
  return shell({
    title: 'Link used or expired',
    body: html`<div class="auth"><div class="card">
<h1>This link cannot be used</h1>
<p>It was already used, a newer link replaced it, or it is older than 24 hours.</p>
<p>Use <a href="/forgot-password">Forgot password?</a> for a new link by email, ask an owner of your workspace to
invite you again, or on the server run <code>${cli} user reset-password --email you@example.com</code>.</p>
<p><a href="/login">Go to sign in</a></p>
</div></div>`,
  });
}
