import { httpStatusOf } from '../../http/error-statuses.js';
import type { FastifyReply } from 'fastify';
import { AppError, type FieldError } from '../../domain/errors.js';
import { html, type SafeHtml } from '../html.js';

/** Times are written as UTC in the markup and shown in the viewer's zone by <time>'s title and the text. */
export function when(iso: string | null, empty = 'never'): SafeHtml | string {
  if (!iso) return empty;
  const date = new Date(iso);
  const text = date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return html`<time datetime="${iso}" data-local>${text}</time>`;
}

export function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** `?page=N` of a paged list (Scans, Quarantine): 1 when absent or not a page number. */
export function pageNumber(value: string | undefined): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** Newer/Older links of a list paged by number, newest first; nothing when everything fits on page 1. */
export function numberedPager(input: { base: string; page: number; hasOlder: boolean }): SafeHtml | string {
  const { base, page, hasOlder } = input;
  if (page <= 1 && !hasOlder) return '';
  const join = base.includes('?') ? '&' : '?';
  const link = (to: number) => (to <= 1 ? base : `${base}${join}page=${to}`);
  return html`<nav class="pager" aria-label="Pages">
<span>${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">← Newer</a>` : ''}</span>
<span class="muted small">Page ${page}</span>
<span>${hasOlder ? html`<a href="${link(page + 1)}" rel="next">Older →</a>` : ''}</span>
</nav>`;
}

/**
 * Newest/Older links of a list paged by a cursor, newest first (Leads inbox, Audit log). `base` is the list's first
 * page with its filters; Older adds `param` set to the cursor the list handed back for the next page. `cursor` is the
 * one this page was opened with: without it this is already the newest page. Nothing when everything fits on one page.
 */
export function cursorPager(input: { base: string; param: string; cursor: string | undefined; next: string | null | undefined }): SafeHtml | string {
  const { base, param, cursor, next } = input;
  if (!cursor && !next) return '';
  const join = base.includes('?') ? '&' : '?';
  const older = next ? `${base}${join}${new URLSearchParams({ [param]: next }).toString()}` : '';
  return html`<nav class="pager" aria-label="Pages">
<span>${cursor ? html`<a href="${base}">← Newest</a>` : ''}</span>
<span>${older ? html`<a href="${older}" rel="next">Older →</a>` : ''}</span>
</nav>`;
}

/** The hidden CSRF field every POST form carries. */
export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

/**
 * A one-button POST form (Regenerate, Delete, Deactivate…). With `confirm`, the script asks first; without the
 * script the button posts straight away.
 */
export function actionButton(input: {
  action: string;
  csrf: string;
  label: string;
  confirm?: string;
  kind?: 'primary' | 'secondary' | 'danger';
  fields?: Record<string, string>;
}): SafeHtml {
  const kind = input.kind ?? 'secondary';
  return html`<form class="inline" method="post" action="${input.action}"${input.confirm ? html` data-confirm="${input.confirm}"` : ''}>${csrfField(input.csrf)}${Object.entries(input.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<button type="submit"${kind === 'primary' ? '' : html` class="${kind}"`}>${input.label}</button></form>`;
}

/** Field problems of a refused form, by field name, from the same AppError the API would turn into problem+json. */
export type FormErrors = Record<string, string>;

export function formErrorsOf(error: AppError, fallbackField: string): FormErrors {
  const errors: FormErrors = {};
  for (const fieldError of error.fieldErrors ?? ([] as FieldError[])) errors[fieldError.field] ??= fieldError.message;
  if (Object.keys(errors).length === 0) errors[fallbackField] = error.detail;
  return errors;
}

/** A labelled input with its error tied to it (aria-describedby), as the hosted form does. */
export function field(input: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  errors?: FormErrors;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  textarea?: boolean;
}): SafeHtml {
  const id = `f-${input.name}`;
  const error = input.errors?.[input.name];
  const describedBy = [input.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = html` id="${id}" name="${input.name}"${input.autocomplete ? html` autocomplete="${input.autocomplete}"` : ''}${input.required ? html` required` : ''}${input.maxlength ? html` maxlength="${input.maxlength}"` : ''}${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  return html`<div class="field">
<label for="${id}">${input.label}</label>
${input.textarea ? html`<textarea${common}>${input.value ?? ''}</textarea>` : html`<input type="${input.type ?? 'text'}"${common} value="${input.value ?? ''}">`}
${input.hint ? html`<p class="hint" id="${id}-hint">${input.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

/** Notices after a redirect: a fixed set of codes, so no text from the URL is ever shown. */
export const NOTICES: Record<string, string> = {
  'key-regenerated': 'A new upload key was made. The old key is refused from now on; put the new one into the scanning app.',
  'scan-deleted': 'The scan was deleted.',
  'scan-attached': 'The scan is attached to the lead. It is listed on the lead’s page.',
  'scan-detached': 'The scan is no longer attached to a lead.',
  'source-created': 'The lead source was created.',
  'source-activated': 'The intake link and hosted form are active again.',
  'source-deactivated': 'The intake link and hosted form are switched off. Posts to them are refused until you activate them.',
  'bot-check-saved': 'Bot-check settings saved.',
  'bot-check-off': 'The bot check is off.',
  'texts-saved': 'Hosted-form texts saved.',
  'spam-rules-saved': 'Spam rules saved. New posts are checked against them from now on.',
  'form-field-added': 'The field was added to the hosted form.',
  'form-field-moved': 'The field was moved.',
  'form-field-removed': 'The field was removed from the hosted form. Answers already received stay on their leads.',
  'form-look-saved': 'The form’s colour is saved.',
  'role-changed': 'Role changed.',
  'member-removed': 'The member was removed.',
  'settings-saved': 'Settings saved.',
  'notifications-saved': 'Your email choices are saved.',
  'invitation-cancelled': 'The invitation was withdrawn.',
  'invitation-declined': 'The invitation was declined.',
  'password-changed': 'Password changed. Your other sessions were signed out.',
  'name-saved': 'Name saved.',
  'email-change-sent': 'We sent a confirmation link to the new address. Your email changes when you open it.',
  'password-set': 'Password set. Sign in with your email and the new password.',
  'signed-out': 'You are signed out.',
};

export function notice(code: string | undefined): SafeHtml | string {
  const text = code ? NOTICES[code] : undefined;
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}

export function isFormError(error: unknown): error is AppError {
  return error instanceof AppError && httpStatusOf(error) < 500 && httpStatusOf(error) !== 404 && httpStatusOf(error) !== 403;
}

/**
 * A download: the body exactly as given (no re-serialization, no charset rewrite) under a file name the browser
 * saves it as. `noStore` for what must not stay in a cache (a person's data).
 */
export function sendAttachment(reply: FastifyReply, file: { contentType: string; filename: string; body: unknown; noStore?: boolean }) {
  reply.code(200).header('content-type', file.contentType).header('content-disposition', `attachment; filename="${file.filename}"`);
  if (file.noStore) reply.header('cache-control', 'no-store');
  return reply.send(file.body);
}

/** A labelled <select> with its hint and the field's error beside it, as every form field here. */
export function selectField(name: string, label: string, options: Array<[string, string]>, selected: string, errors: FormErrors, hint?: string): SafeHtml {
  const id = `f-${name}`;
  const error = errors[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${label}</label>
<select id="${id}" name="${name}"${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}>${options.map(
    ([value, text]) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${text}</option>`,
  )}</select>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}
