import { html } from '../../html.js';
import { shell } from '../layout.js';
import { field, notice, type FormErrors } from '../ui.js';

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
${field({ name: 'email', label: 'Email', type: 'email', value: input.email ?? '', autocomplete: 'username', required: true, errors })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, errors })}
<button type="submit">Sign in</button>
</form>
</div>
<p class="muted small">Forgot your password? An owner can send you a new link, or on the server run
<code>npx leadscan user reset-password --email you@example.com</code>.</p>
</div>`,
  });
}

/** `/setup/{token}`: the one-time link's page where a person sets their password. */
export function setupPage(input: { email: string; errors?: FormErrors }): string {
  const errors = input.errors ?? {};
  return shell({
    title: 'Set your password',
    body: html`<div class="auth">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>Leadscan</p>
<div class="card">
<h1>Set your password</h1>
<p>For <strong>${input.email}</strong>. This link works once.</p>
<form method="post" novalidate>
<input type="text" name="username" value="${input.email}" autocomplete="username" hidden>
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, errors, hint: 'At least 10 characters. A few unrelated words are easy to remember and hard to guess.' })}
${field({ name: 'repeat', label: 'Repeat the password', type: 'password', autocomplete: 'new-password', required: true, errors })}
<button type="submit">Set password</button>
</form>
</div>
</div>`,
  });
}

export function setupUnusablePage(): string {
  return shell({
    title: 'Link used or expired',
    body: html`<div class="auth"><div class="card">
<h1>This link cannot be used</h1>
<p>It was already used, a newer link replaced it, or it is older than 24 hours.</p>
<p>Ask an owner of your workspace to invite you again, or on the server run
<code>npx leadscan user reset-password --email you@example.com</code> for a new link.</p>
<p><a href="/login">Go to sign in</a></p>
</div></div>`,
  });
}
