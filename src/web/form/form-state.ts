import type { AppError } from '../../domain/errors.js';
import { LEAD_FIELD_NAMES, NOTES_ALIAS, PAGE_URL_FIELD, type LeadFieldName } from '../../domain/lead-fields.js';
import type { FormBotCheck } from './bot-check-widget.js';
import type { FormPageState } from './form-page.js';
import { FORM_MESSAGES, fieldMessage, formProblem } from './messages.js';

/** The values a person typed, as typed (not trimmed), to put back into the form: lead fields, own fields, page. */
export function keptValues(body: Record<string, unknown>): FormPageState['values'] {
  const values: FormPageState['values'] = {};
  for (const [name, value] of Object.entries(body)) {
    const kept = LEAD_FIELD_NAMES.includes(name as LeadFieldName) || name === PAGE_URL_FIELD || name.startsWith('cf_');
    if (!kept) continue;
    if (typeof value === 'string') values[name] = value;
    else if (Array.isArray(value) && name.startsWith('cf_'))
      values[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return values;
}

/** Whether a refusal is about what the person typed, so the form is shown again rather than an error page. */
export function isFormProblem(error: AppError): boolean {
  return error.code === 'missing_contact' || error.code === 'invalid_fields' || error.code === 'bot_check_failed';
}

/**
 * What a refused bot check tells a person on the no-script path. reCAPTCHA v3 has no widget, so without scripts
 * there is never a token: say that JavaScript is needed. Without a site key nothing can make a token at all.
 */
function botCheckFailedMessage(botCheck: FormBotCheck | null): string {
  if (botCheck?.kind === 'recaptcha-v3') return FORM_MESSAGES.botCheckNoScript;
  if (botCheck?.kind === 'unconfigured') return FORM_MESSAGES.botCheckUnconfigured;
  return formProblem('bot_check_failed').text;
}

/** The form again after a refused no-script submission: each problem next to its field, values kept. */
export function formStateFromError(
  error: AppError,
  body: Record<string, unknown>,
  botCheck: FormBotCheck | null = null,
): FormPageState {
  const fieldErrors: FormPageState['fieldErrors'] = {};
  const others: string[] = [];
  for (const fieldError of error.fieldErrors ?? []) {
    const name = fieldError.field === NOTES_ALIAS ? 'notes' : fieldError.field;
    const shown = LEAD_FIELD_NAMES.includes(name as LeadFieldName) || name.startsWith('cf_');
    if (shown && fieldErrors[name] === undefined) fieldErrors[name] = fieldMessage(fieldError);
    else others.push(fieldError.message);
  }
  const lead = error.code === 'bot_check_failed' ? botCheckFailedMessage(botCheck) : formProblem(error.code).text;
  return {
    values: keptValues(body),
    fieldErrors,
    contactMissing: error.code === 'missing_contact',
    status: [lead, ...others].join(' '),
  };
}
