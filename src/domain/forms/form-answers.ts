import { AppError, type FieldError } from '../errors.js';
import { NOTES_ALIAS, normalizeLeadBody, type LeadFields } from '../lead-fields.js';
import { answerName, FORM_LIMITS, type FormFieldDefinition } from './form-definition.js';
import { builtInLabel, type BuiltInField } from './form-layout.js';

/**
 * What the visitor is told about one answer, a built-in field's too; the API's problem+json carries the very same
 * words, and the hosted form shows them next to the field (web/form/messages.ts keeps a field problem's own message
 * for these codes).
 */
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
    return fail(
      'required',
      field.kind === 'consent' ? ANSWER_MESSAGES.consent(field.label) : ANSWER_MESSAGES.required(field.label),
    );
  }
  switch (field.kind) {
    case 'short_text':
    case 'long_text': {
      const max = field.kind === 'short_text' ? FORM_LIMITS.shortAnswer : FORM_LIMITS.longAnswer;
      const text = given[0]!;
      return [...text].length > max ? fail('too_long', ANSWER_MESSAGES.tooLong(field.label, max), max) : { text };
    }
    case 'choice':
      return field.options.includes(given[0]!) && given.length === 1
        ? { text: given[0]! }
        : fail('invalid', ANSWER_MESSAGES.notAnOption(field.label));
    case 'checkboxes': {
      if (given.some((v) => !field.options.includes(v)))
        return fail('invalid', ANSWER_MESSAGES.notAnOption(field.label));
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
 * A hosted-form post's answers to the source's own fields (docs/api.md, "The hosted form's own fields"): each `cf_<id>`
 * becomes an extra field under the field's label. `strict` checks them (required, in the list, a real date); the
 * lenient read keeps whatever was sent, for a quarantined submission that a person may restore later.
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

const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The built-in fields the owner made required that the post leaves empty (notes also by its alias, message). */
function missingBuiltIns(builtIns: readonly BuiltInField[], body: Record<string, unknown>): FieldError[] {
  return builtIns
    .filter((b) => b.shown && b.required && blank(body[b.name]) && (b.name !== 'notes' || blank(body[NOTES_ALIAS])))
    .map((b) => ({ field: b.name, code: 'required', message: ANSWER_MESSAGES.required(builtInLabel(b)) }));
}

/**
 * A hosted-form post's fields: the built-in fields its owner made required, its answers checked and put under their
 * labels, then the lead fields' own rules. Every problem is reported at once, in the form's order of kinds
 * (missing_contact stays the code when no contact was given, as for any post).
 */
export function normalizeHostedFormBody(
  form: { fields: readonly FormFieldDefinition[]; layout: { builtIns: readonly BuiltInField[] } },
  body: Record<string, unknown>,
  drop: readonly string[],
): LeadFields {
  const own = readFormAnswers(form.fields, body, drop, true);
  const answered = { body: own.body, errors: [...missingBuiltIns(form.layout.builtIns, body), ...own.errors] };
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
