import type { LeadSource } from '../../domain/sources/source.js';
import { formBotCheck, RECAPTCHA_V3, type FormBotCheck } from './bot-check-widget.js';
import { CONTACT_HINT_ID, FORM_FIELDS, FORM_KEY_FIELD, fieldErrorId, fieldId, type FormField } from './form-fields.js';
import { html, type SafeHtml } from '../html.js';
import { contactMessages, FORM_MESSAGES } from './messages.js';
import { layout } from './layout.js';
import { NO_TEXTS } from '../../domain/sources/update-source-texts.js';
import { answerName } from '../../domain/forms/form-definition.js';
import type { HostedForm } from '../../domain/forms/source-form.js';
import { builtInLabel, DEFAULT_BUILT_INS, formItems, type BuiltInField } from '../../domain/forms/form-layout.js';
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

/**
 * A built-in field as its owner set it: its label, and required or not. `hinted`: the "at least one" hint stands
 * above the contact fields (no contact field is required), so they are described by it and not marked optional.
 */
function fieldMarkup(field: FormField, setting: BuiltInField, hinted: boolean, state: FormPageState): SafeHtml {
  const id = fieldId(field.name);
  const errorId = fieldErrorId(field.name);
  const error = state.fieldErrors[field.name] ?? '';
  const invalid = Boolean(error) || (field.contact && state.contactMissing);
  const byHint = field.contact && hinted;
  const describedBy = byHint ? `${CONTACT_HINT_ID} ${errorId}` : errorId;
  const kept = state.values[field.name];
  const value = typeof kept === 'string' ? kept : '';
  const common = html`id="${id}" name="${field.name}" maxlength="${field.maxlength}"
  autocomplete="${field.autocomplete}" aria-describedby="${describedBy}"${
    setting.required ? html` aria-required="true"` : ''
  }${invalid ? html` aria-invalid="true"` : ''}`;
  // The parser drops one newline right after <textarea>: the extra one keeps a kept value's own first newline.
  const control =
    field.control === 'textarea'
      ? html`<textarea ${common} rows="5">\n${value}</textarea>`
      : html`<input ${common} type="${field.control}"${
          field.control === 'tel' ? html` inputmode="tel"` : ''
        } value="${value}">`;
  return html`<div class="field">
<label for="${id}">${builtInLabel(setting)}${
    byHint || setting.required ? '' : html` <span class="optional">(optional)</span>`
  }</label>
${control}
<p class="field-error" id="${errorId}">${error}</p>
</div>
`;
}

function botCheckMarkup(botCheck: FormBotCheck | null): SafeHtml {
  if (!botCheck || botCheck.kind === 'unconfigured') return html``;
  // reCAPTCHA v3 has no widget (Google shows its own badge); without scripts it cannot make a token at all.
  const widget =
    botCheck.kind === 'widget'
      ? html`<div class="${botCheck.widget.className}" data-sitekey="${botCheck.siteKey}"></div>
`
      : '';
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
  if (botCheck?.kind === 'recaptcha-v3')
    return html` data-bot-check="${RECAPTCHA_V3}" data-site-key="${botCheck.siteKey}"`;
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
export const PLAIN_FORM = (source: LeadSource): HostedForm => ({
  texts: NO_TEXTS,
  heading: source.name,
  fields: [],
  layout: { builtIns: [...DEFAULT_BUILT_INS], order: FORM_FIELDS.map((f) => f.name) },
  accent: null,
});

/**
 * The "at least one of name, phone, email" hint, naming the contact fields the form shows; none when the owner made
 * one of them required (the visitor must fill that one in anyway). Its words differ from the default ones only on
 * a form whose contact fields were hidden or relabelled, and then travel with it for the script.
 */
function contactHint(
  builtIns: readonly BuiltInField[],
  state: FormPageState,
): { markup: SafeHtml | ''; hinted: boolean } {
  const contact = builtIns.filter((b) => FORM_FIELDS.some((f) => f.contact && f.name === b.name) && b.shown);
  if (contact.some((b) => b.required)) return { markup: '', hinted: false };
  const words = contactMessages(
    contact.map(builtInLabel),
    contact.some((b) => b.label !== null),
  );
  const own =
    words.hint === FORM_MESSAGES.contactHint ? '' : html` data-hint="${words.hint}" data-missing="${words.missing}"`;
  return {
    markup: html`<p id="${CONTACT_HINT_ID}" class="hint${state.contactMissing ? ' error' : ''}"${own}>${
      state.contactMissing ? words.missing : words.hint
    }</p>
`,
    hinted: true,
  };
}

/** The form's fields in the owner's order: the built-in ones shown (as set) and the source's own. */
function fieldsMarkup(form: HostedForm, hinted: boolean, state: FormPageState): SafeHtml[] {
  return formItems(form.layout, form.fields).map((item) => {
    if (item.kind === 'own')
      return customFieldMarkup(
        item.field,
        state.values[answerName(item.field)],
        state.fieldErrors[answerName(item.field)],
      );
    const field = FORM_FIELDS.find((f) => f.name === item.field.name)!;
    return item.field.shown ? fieldMarkup(field, item.field, hinted, state) : html``;
  });
}

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
  const hint = contactHint(form.layout.builtIns, state);
  const body = html`<h1>${heading}</h1>
${texts.introduction ? html`<p class="intro" id="form-intro">${texts.introduction}</p>` : ''}
<form id="lead-form" method="post" action="${source.token}" accept-charset="utf-8" novalidate
  data-intake="../api/intake/${source.token}"${botCheckAttributes(botCheck)}>
${hint.markup}${fieldsMarkup(form, hint.hinted, state)}<div class="hp" aria-hidden="true">
<label for="f-website">Leave this field empty</label>
<input id="f-website" name="website" type="text" value="" tabindex="-1" autocomplete="off" aria-hidden="true">
</div>
${botCheckMarkup(botCheck)}<input type="hidden" name="${FORM_KEY_FIELD}" value="${input.idempotencyKey}">
<input type="hidden" name="${FORM_STAMP_FIELD}" value="${input.stamp}">
<input type="hidden" id="f-${PAGE_URL_FIELD}" name="${PAGE_URL_FIELD}" value="${pageUrl}">
<button type="submit">Send</button>
<p id="form-status" class="status${state.status ? ' error' : ''}" role="status"
  aria-live="polite">${state.status ?? ''}</p>
</form>
<section class="thanks" id="thanks" aria-labelledby="thanks-heading" tabindex="-1" hidden>
<h2 id="thanks-heading">Thank you</h2>
<p>${texts.thankYou ?? FORM_MESSAGES.thanks}</p>
</section>`;
  return layout({
    title: hasErrors ? `Please correct the form · ${heading}` : heading,
    body,
    script: true,
    botCheckScript:
      botCheck?.kind === 'widget'
        ? botCheck.widget.scriptUrl
        : botCheck?.kind === 'recaptcha-v3'
          ? botCheck.scriptUrl
          : null,
    accent: form.accent,
    embedded: input.embedded ?? false,
  });
}
