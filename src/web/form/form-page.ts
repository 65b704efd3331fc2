import type { LeadSource } from '../../domain/sources/source.js';
import { formBotCheck, RECAPTCHA_V3, type FormBotCheck } from './bot-check-widget.js';
import { CONTACT_HINT_ID, FORM_FIELDS, FORM_KEY_FIELD, fieldErrorId, fieldId, type FormField } from './form-fields.js';
import { html, type SafeHtml } from '../html.js';
import { FORM_MESSAGES } from './messages.js';
import { layout } from './layout.js';
import { NO_TEXTS } from '../../domain/sources/update-source-texts.js';
import { answerName } from '../../domain/forms/form-definition.js';
import type { HostedForm } from '../../domain/forms/source-form.js';
import { FORM_STAMP_FIELD } from '../../domain/intake/form-stamp.js';
import { PAGE_URL_FIELD } from '../../domain/lead-fields.js';
import { customFieldMarkup } from './custom-fields.js';

/** What a re-rendered form shows: the values as typed and what is wrong with them. */
export interface FormPageState {
  /** By the name the form posts: a lead field's, or `cf_<id>` for one of the source's own (a list for checkboxes). */
  values: Record<string, string | string[]>;
  fieldErrors: Record<string, string>;
  contactMissing: boolean;
  /** A sentence for the status line, e.g. "Please correct the highlighted fields". */
  status: string | null;
}

export const EMPTY_FORM: FormPageState = { values: {}, fieldErrors: {}, contactMissing: false, status: null };

/** The hidden field carrying the no-script post's idempotency key (the script sends its own header instead). */
export { FORM_KEY_FIELD } from './form-fields.js';

function fieldMarkup(field: FormField, state: FormPageState): SafeHtml {
  const id = fieldId(field.name);
  const errorId = fieldErrorId(field.name);
  const error = state.fieldErrors[field.name] ?? '';
  const invalid = Boolean(error) || (field.contact && state.contactMissing);
  const describedBy = field.contact ? `${CONTACT_HINT_ID} ${errorId}` : errorId;
  const kept = state.values[field.name];
  const value = typeof kept === 'string' ? kept : '';
  const common = html`id="${id}" name="${field.name}" maxlength="${field.maxlength}" autocomplete="${field.autocomplete}" aria-describedby="${describedBy}"${invalid ? html` aria-invalid="true"` : ''}`;
  // The parser drops one newline right after <textarea>: the extra one keeps a kept value's own first newline.
  const control =
    field.control === 'textarea'
      ? html`<textarea ${common} rows="5">\n${value}</textarea>`
      : html`<input ${common} type="${field.control}"${field.control === 'tel' ? html` inputmode="tel"` : ''} value="${value}">`;
  return html`<div class="field">
<label for="${id}">${field.label}${field.contact ? '' : html` <span class="optional">(optional)</span>`}</label>
${control}
<p class="field-error" id="${errorId}">${error}</p>
</div>
`;
}

function botCheckMarkup(botCheck: FormBotCheck | null): SafeHtml {
  if (!botCheck || botCheck.kind === 'unconfigured') return html``;
  // reCAPTCHA v3 has no widget (Google shows its own badge); without scripts it cannot make a token at all.
  const widget =
    botCheck.kind === 'widget' ? html`<div class="${botCheck.widget.className}" data-sitekey="${botCheck.siteKey}"></div>
` : '';
  return html`<div class="bot-check">
${widget}<noscript><p class="field-error">${FORM_MESSAGES.botCheckNoScript}</p></noscript>
</div>
`;
}

/** The `data-` attributes telling the form's script how to get a bot-check token. */
function botCheckAttributes(botCheck: FormBotCheck | null): SafeHtml | '' {
  if (botCheck?.kind === 'widget') {
    return html` data-bot-check="${botCheck.provider}" data-bot-check-field="${botCheck.widget.responseField}"`;
  }
  if (botCheck?.kind === 'recaptcha-v3') return html` data-bot-check="${RECAPTCHA_V3}" data-site-key="${botCheck.siteKey}"`;
  return '';
}

/**
 * A bot check without a site key: nothing in the page can make a token, so every submission would be refused.
 * Say so instead of showing a form that cannot be sent.
 */
function unconfiguredPage(heading: string): string {
  return layout({
    title: heading,
    body: html`<h1>${heading}</h1>
<p id="form-unavailable" class="notice" role="alert">${FORM_MESSAGES.botCheckUnconfigured}</p>`,
  });
}

/** The form as the source's owner set it up; a page without one shows the built-in fields and the defaults. */
export const PLAIN_FORM = (source: LeadSource): HostedForm => ({ texts: NO_TEXTS, heading: source.name, fields: [], accent: null });

/**
 * The hosted form of an active source (docs/api.md); with `state`, the form again after a refused submission.
 * `stamp` is the signed render time (docs/security.md); `pageUrl` is filled in by the script from the page the
 * form is embedded in.
 */
export function formPage(input: {
  source: LeadSource;
  idempotencyKey: string;
  stamp: string;
  state?: FormPageState;
  form?: HostedForm;
  embedded?: boolean;
}): string {
  const { source } = input;
  const form = input.form ?? PLAIN_FORM(source);
  const { texts, heading } = form;
  const state = input.state ?? EMPTY_FORM;
  const botCheck = formBotCheck(source.botCheck);
  if (botCheck?.kind === 'unconfigured') return unconfiguredPage(heading);
  const hasErrors = state.contactMissing || Object.keys(state.fieldErrors).length > 0 || state.status !== null;
  const pageUrl = typeof state.values[PAGE_URL_FIELD] === 'string' ? state.values[PAGE_URL_FIELD] : '';
  const body = html`<h1>${heading}</h1>
${texts.introduction ? html`<p class="intro" id="form-intro">${texts.introduction}</p>` : ''}
<form id="lead-form" method="post" action="${source.token}" accept-charset="utf-8" novalidate data-intake="../api/intake/${source.token}"${botCheckAttributes(botCheck)}>
<p id="${CONTACT_HINT_ID}" class="hint${state.contactMissing ? ' error' : ''}">${state.contactMissing ? FORM_MESSAGES.missingContact : FORM_MESSAGES.contactHint}</p>
${FORM_FIELDS.map((field) => fieldMarkup(field, state))}${form.fields.map((field) =>
    customFieldMarkup(field, state.values[answerName(field)], state.fieldErrors[answerName(field)]),
  )}<div class="hp" aria-hidden="true">
<label for="f-website">Leave this field empty</label>
<input id="f-website" name="website" type="text" value="" tabindex="-1" autocomplete="off" aria-hidden="true">
</div>
${botCheckMarkup(botCheck)}<input type="hidden" name="${FORM_KEY_FIELD}" value="${input.idempotencyKey}">
<input type="hidden" name="${FORM_STAMP_FIELD}" value="${input.stamp}">
<input type="hidden" id="f-${PAGE_URL_FIELD}" name="${PAGE_URL_FIELD}" value="${pageUrl}">
<button type="submit">Send</button>
<p id="form-status" class="status${state.status ? ' error' : ''}" role="status" aria-live="polite">${state.status ?? ''}</p>
</form>
<section class="thanks" id="thanks" aria-labelledby="thanks-heading" tabindex="-1" hidden>
<h2 id="thanks-heading">Thank you</h2>
<p>${texts.thankYou ?? FORM_MESSAGES.thanks}</p>
</section>`;
  return layout({
    title: hasErrors ? `Please correct the form · ${heading}` : heading,
    body,
    script: true,
    botCheckScript: botCheck?.kind === 'widget' ? botCheck.widget.scriptUrl : botCheck?.kind === 'recaptcha-v3' ? botCheck.scriptUrl : null,
    accent: form.accent,
    embedded: input.embedded ?? false,
  });
}
