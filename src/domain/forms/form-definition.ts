import crypto from 'node:crypto';
import { AppError, type FieldError } from '../errors.js';
import { EXTRA_LIMITS, KNOWN_FIELDS } from '../lead-fields.js';
import { hasControlCharacters } from '../text-input.js';

/** The kinds of field an owner can add to a source's hosted form (docs/admin-app.md, "A source's form"). */
export const FORM_FIELD_KINDS = ['short_text', 'long_text', 'choice', 'checkboxes', 'date', 'consent'] as const;
export type FormFieldKind = (typeof FORM_FIELD_KINDS)[number];

export const FORM_FIELD_KIND_LABELS: Record<FormFieldKind, string> = {
  short_text: 'Short text',
  long_text: 'Long text',
  choice: 'Choice (one of a list)',
  checkboxes: 'Checkboxes (any of a list)',
  date: 'Date',
  consent: 'Consent (a box to tick)',
};

/**
 * Bounds of a form's definition. A label is the key its answers are stored under (an extra field), so it stays
 * within the extra fields' key bound; 20 fields stay well inside the 50 extra fields a lead may carry.
 */
export const FORM_LIMITS = {
  fields: 20,
  label: Math.min(80, EXTRA_LIMITS.keyLength),
  help: 300,
  consentText: 500,
  options: 20,
  option: 80,
  /** Answers: a short text, a long text (the extra field bound). */
  shortAnswer: 200,
  longAnswer: EXTRA_LIMITS.valueLength,
} as const;

export interface FormFieldDefinition {
  /** Stable, so moving or relabelling a field never mixes up answers: the form sends `cf_<id>`. */
  id: string;
  kind: FormFieldKind;
  label: string;
  help: string | null;
  required: boolean;
  /** choice and checkboxes: the list, in order; empty for the others. */
  options: string[];
  /** consent: the owner's text next to the box; null for the others. */
  consentText: string | null;
}

/** The name a field's answer is posted under by the hosted form. */
export const answerName = (field: Pick<FormFieldDefinition, 'id'>) => `cf_${field.id}`;

const FIELD_ID = /^[0-9a-f]{12}$/;

export function newFieldId(): string {
  return crypto.randomBytes(6).toString('hex');
}

/** The stored list, as written by this module; anything else in the column is a bug, not input. */
export function parseFormFields(json: string | null | undefined): FormFieldDefinition[] {
  if (!json) return [];
  const list = JSON.parse(json) as FormFieldDefinition[];
  return list.filter((f) => FIELD_ID.test(f.id) && FORM_FIELD_KINDS.includes(f.kind));
}

export interface NewFormField {
  kind: string;
  label: string;
  help?: string | null;
  required?: boolean;
  /** choice and checkboxes: one option per line. */
  options?: string | string[] | null;
  consentText?: string | null;
}

const oneLine = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();

function optionsOf(input: NewFormField['options']): string[] {
  const lines = Array.isArray(input) ? input : (input ?? '').split(/\r?\n/);
  return lines.map((line) => oneLine(line)).filter((line) => line !== '');
}

/**
 * Checks a new field against the bounds and the fields already there; returns it with a fresh id. Labels are the
 * keys answers are stored under, so one may not repeat another's (any case) nor be a lead field's own name.
 */
export function checkNewField(input: NewFormField, existing: readonly FormFieldDefinition[]): FormFieldDefinition {
  const errors: FieldError[] = [];
  const kind = input.kind as FormFieldKind;
  if (!FORM_FIELD_KINDS.includes(kind)) {
    errors.push({ field: 'kind', code: 'invalid', message: `Choose a kind of field: ${FORM_FIELD_KINDS.join(', ')}` });
  }
  if (existing.length >= FORM_LIMITS.fields) {
    errors.push({
      field: 'label',
      code: 'too_many',
      max: FORM_LIMITS.fields,
      message: `A form has at most ${FORM_LIMITS.fields} fields of its own; remove one first`,
    });
  }
  const label = oneLine(input.label);
  const lower = label.toLowerCase();
  if (label === '') errors.push({ field: 'label', code: 'required', message: 'Give the field a label' });
  else if ([...label].length > FORM_LIMITS.label) {
    errors.push({
      field: 'label',
      code: 'too_long',
      max: FORM_LIMITS.label,
      message: `Use at most ${FORM_LIMITS.label} characters`,
    });
  } else if (hasControlCharacters(label) || [...KNOWN_FIELDS, 'formStamp'].some((k) => k.toLowerCase() === lower)) {
    errors.push({
      field: 'label',
      code: 'invalid',
      message: 'This label is taken by a built-in field; choose another',
    });
  } else if (existing.some((f) => f.label.toLowerCase() === lower)) {
    errors.push({
      field: 'label',
      code: 'invalid',
      message: 'Another field has this label; answers are stored under it, so choose another',
    });
  }
  const help = (input.help ?? '').replace(/\r\n/g, '\n').trim();
  if ([...help].length > FORM_LIMITS.help) {
    errors.push({
      field: 'help',
      code: 'too_long',
      max: FORM_LIMITS.help,
      message: `Use at most ${FORM_LIMITS.help} characters`,
    });
  } else if (hasControlCharacters(help, true)) {
    errors.push({ field: 'help', code: 'invalid', message: 'The help text contains a control character; remove it' });
  }
  const listed = kind === 'choice' || kind === 'checkboxes';
  const options = listed ? optionsOf(input.options) : [];
  if (listed) {
    const unique = new Set(options.map((o) => o.toLowerCase()));
    if (options.length < 2)
      errors.push({ field: 'options', code: 'required', message: 'Give at least two options, one per line' });
    else if (options.length > FORM_LIMITS.options) {
      errors.push({
        field: 'options',
        code: 'too_many',
        max: FORM_LIMITS.options,
        message: `Give at most ${FORM_LIMITS.options} options`,
      });
    } else if (options.some((o) => [...o].length > FORM_LIMITS.option)) {
      errors.push({
        field: 'options',
        code: 'too_long',
        max: FORM_LIMITS.option,
        message: `Each option may have at most ${FORM_LIMITS.option} characters`,
      });
    } else if (unique.size !== options.length) {
      errors.push({ field: 'options', code: 'invalid', message: 'Each option may appear once' });
    } else if (options.some((o) => hasControlCharacters(o))) {
      errors.push({ field: 'options', code: 'invalid', message: 'An option contains a control character; remove it' });
    }
  }
  const consentText = kind === 'consent' ? (input.consentText ?? '').replace(/\r\n/g, '\n').trim() : '';
  if (kind === 'consent') {
    if (consentText === '')
      errors.push({ field: 'consentText', code: 'required', message: 'Write what the person agrees to' });
    else if ([...consentText].length > FORM_LIMITS.consentText) {
      errors.push({
        field: 'consentText',
        code: 'too_long',
        max: FORM_LIMITS.consentText,
        message: `Use at most ${FORM_LIMITS.consentText} characters`,
      });
    } else if (hasControlCharacters(consentText, true)) {
      errors.push({
        field: 'consentText',
        code: 'invalid',
        message: 'The text contains a control character; remove it',
      });
    }
  }
  if (errors.length) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return {
    id: newFieldId(),
    kind,
    label,
    help: help === '' ? null : help,
    required: Boolean(input.required),
    options,
    consentText: kind === 'consent' ? consentText : null,
  };
}
