import { AppError, type FieldError } from '../errors.js';
import { normalizeLeadBody, type LeadFields } from '../lead-fields.js';
import { answerName, FORM_LIMITS, type FormFieldDefinition } from './form-definition.js';

/** What the visitor is told about one answer; the API's problem+json carries the very same words. */
export const ANSWER_MESSAGES = {
  required: (label: string) => `Please answer “${label}”.`,
  notAnOption: (label: string) => `Please choose one of the listed answers for “${label}”.`,
  badDate: (label: string) => `Please give “${label}” as a date (YYYY-MM-DD).`,
  tooLong: (label: string, max: number) => `Please shorten “${label}” to ${max} characters or fewer.`,
  consent: (label: string) => `Please tick the box for “${label}” to send the form.`,
} as const;

/** How a ticked consent box is stored: the text agreed to, since the owner may change it later. */
export const consentAnswer = (field: FormFieldDefinition) => `Agreed: ${field.consentText ?? ''}`;

function texts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list
    .map((v) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : ''))
    .map((v) => v.replaceAll('\u0000', '').trim())
    .filter((v) => v !== '');
}

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** One answer as stored (null: not answered), or the problem with it. */
function answerOf(field: FormFieldDefinition, value: unknown): { text: string | null; error?: FieldError } {
  const given = texts(value);
  const fail = (code: FieldError['code'], message: string, max?: number) => ({
    text: null,
    error: { field: answerName(field), code, message, ...(max === undefined ? {} : { max }) },
  });
  if (given.length === 0) {
    if (!field.required) return { text: null };
    return fail('required', field.kind === 'consent' ? ANSWER_MESSAGES.consent(field.label) : ANSWER_MESSAGES.required(field.label));
  }
  switch (field.kind) {
    case 'short_text':
    case 'long_text': {
      const max = field.kind === 'short_text' ? FORM_LIMITS.shortAnswer : FORM_LIMITS.longAnswer;
      const text = given[0]!;
      return [...text].length > max ? fail('too_long', ANSWER_MESSAGES.tooLong(field.label, max), max) : { text };
    }
    case 'choice':
      return field.options.includes(given[0]!) && given.length === 1 ? { text: given[0]! } : fail('invalid', ANSWER_MESSAGES.notAnOption(field.label));
    case 'checkboxes': {
      if (given.some((v) => !field.options.includes(v))) return fail('invalid', ANSWER_MESSAGES.notAnOption(field.label));
      // In the list's order, each once, whatever order the browser sent them in.
      return { text: field.options.filter((o) => given.includes(o)).join(', ') };
    }
    case 'date':
      return isCalendarDay(given[0]!) ? { text: given[0]! } : fail('invalid', ANSWER_MESSAGES.badDate(field.label));
    case 'consent':
      return { text: consentAnswer(field) };
  }
}

/**
 * A hosted-form post's answers to the source's own fields (docs/api.md, "The hosted form's own fields"): each `cf_<id>` becomes
 * an extra field under the field's label. `strict` checks them (required, in the list, a real date); the lenient
 * read keeps whatever was sent, for a quarantined submission that a person may restore later.
 * Other fields of the body pass through unchanged.
 */
export function readFormAnswers(
  fields: readonly FormFieldDefinition[],
  body: Record<string, unknown>,
  drop: readonly string[],
  strict: boolean,
): { body: Record<string, unknown>; errors: FieldError[] } {
  const names = new Map(fields.map((f) => [answerName(f), f]));
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(body)) {
    if (!names.has(key) && !drop.includes(key)) out.set(key, value);
  }
  const errors: FieldError[] = [];
  for (const field of fields) {
    const value = body[answerName(field)];
    if (!strict) {
      const given = texts(value);
      if (given.length) out.set(field.label, given.join(', '));
      continue;
    }
    const answer = answerOf(field, value);
    if (answer.error) errors.push(answer.error);
    else if (answer.text !== null) out.set(field.label, answer.text);
  }
  // Object.fromEntries: a label such as "__proto__" stays an ordinary key.
  return { body: Object.fromEntries(out), errors };
}

/**
 * A hosted-form post's fields: its answers checked and put under their labels, then the lead fields' own rules.
 * Every problem is reported at once, the answers' beside the lead fields' (missing_contact stays the code when no
 * contact was given, as for any post).
 */
export function normalizeHostedFormBody(
  fields: readonly FormFieldDefinition[],
  body: Record<string, unknown>,
  drop: readonly string[],
): LeadFields {
  const answered = readFormAnswers(fields, body, drop, true);
  let lead: LeadFields;
  try {
    lead = normalizeLeadBody(answered.body);
  } catch (error) {
    if (!(error instanceof AppError) || answered.errors.length === 0) throw error;
    throw new AppError(error.code, error.detail, [...(error.fieldErrors ?? []), ...answered.errors]);
  }
  if (answered.errors.length) {
    throw new AppError('invalid_fields', `${answered.errors.length} field(s) need fixing; see errors`, answered.errors);
  }
  return lead;
}
