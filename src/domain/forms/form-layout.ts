import { AppError, type FieldError } from '../errors.js';
import { LEAD_FIELD_NAMES, type LeadFieldName } from '../lead-fields.js';
import { hasControlCharacters } from '../text-input.js';
import { FORM_LIMITS, type FormFieldDefinition } from './form-definition.js';

/**
 * The hosted form's built-in fields as an owner shapes them (docs/admin-app.md, "A source's form"): each lead field
 * shown or hidden, required or not, relabelled, and placed in one order with the source's own fields. What the
 * interface says of a lead stays true: at least one of name, phone and email is always on the form, and posts to
 * the intake API are not held to any of this (only hosted-form posts are).
 */
export type BuiltInName = LeadFieldName;
export const BUILT_IN_NAMES: readonly BuiltInName[] = LEAD_FIELD_NAMES;
export const CONTACT_NAMES: readonly BuiltInName[] = ['name', 'phone', 'email'];

/** What the form calls each field unless the owner relabels it. */
export const DEFAULT_BUILT_IN_LABELS: Readonly<Record<BuiltInName, string>> = {
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  address: 'Address',
  notes: 'Message',
};

export interface BuiltInField {
  name: BuiltInName;
  /** The owner's label; null for the default one. */
  label: string | null;
  shown: boolean;
  /** Only a shown field can be required: a hidden required field is refused, never stored. */
  required: boolean;
}

/** The label the visitor reads. */
export const builtInLabel = (field: BuiltInField) => field.label ?? DEFAULT_BUILT_IN_LABELS[field.name];

export const isBuiltInName = (key: string): key is BuiltInName => (BUILT_IN_NAMES as readonly string[]).includes(key);

const DEFAULT_BUILT_IN = (name: BuiltInName): BuiltInField => ({ name, label: null, shown: true, required: false });

/** The shape every form has until its owner changes it. */
export const DEFAULT_BUILT_INS: readonly BuiltInField[] = BUILT_IN_NAMES.map(DEFAULT_BUILT_IN);

/** A form's layout: its built-in fields (in BUILT_IN_NAMES order) and the order of every field by key. */
export interface FormLayout {
  builtIns: BuiltInField[];
  /** Built-in fields by name, the source's own by id (12 hex digits, never a built-in's name). */
  order: string[];
}

/** The order a form has until its owner moves a field: the built-in fields first, then the own fields. */
const defaultOrder = (fields: readonly FormFieldDefinition[]) => [...BUILT_IN_NAMES, ...fields.map((f) => f.id)];

/**
 * Every field's key exactly once: the stored order without keys that are gone (a removed field), then any key it
 * lacks at the end (a field added since, which goes last).
 */
export function completeOrder(order: readonly string[], fields: readonly FormFieldDefinition[]): string[] {
  const known = new Set(defaultOrder(fields));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const key of [...order, ...defaultOrder(fields)]) {
    if (known.has(key) && !seen.has(key)) {
      seen.add(key);
      out.push(key);
    }
  }
  return out;
}

/** The stored layout, as written by this module (null: the default); anything else in the column is a bug. */
export function parseFormLayout(json: string | null | undefined, fields: readonly FormFieldDefinition[]): FormLayout {
  const stored = json
    ? (JSON.parse(json) as { builtIns?: Partial<Record<string, Partial<BuiltInField>>>; order?: string[] })
    : {};
  const builtIns = BUILT_IN_NAMES.map((name) => {
    const s = stored.builtIns?.[name];
    return s
      ? {
          name,
          label: typeof s.label === 'string' ? s.label : null,
          shown: s.shown !== false,
          required: s.required === true && s.shown !== false,
        }
      : DEFAULT_BUILT_IN(name);
  });
  return { builtIns, order: completeOrder(Array.isArray(stored.order) ? stored.order : [], fields) };
}

/** The column's value: null while the layout is the default, so such a form renders exactly as it always did. */
export function storedFormLayout(layout: FormLayout, fields: readonly FormFieldDefinition[]): string | null {
  const changed = layout.builtIns.filter((b) => b.label !== null || !b.shown || b.required);
  const order = completeOrder(layout.order, fields);
  if (changed.length === 0 && order.join(' ') === defaultOrder(fields).join(' ')) return null;
  const builtIns = Object.fromEntries(
    changed.map(({ label, shown, required, name }) => [name, { label, shown, required }]),
  );
  return JSON.stringify({ builtIns, order });
}

/** The own fields in the layout's order, so every list of them agrees with the form. */
export function fieldsInOrder(fields: readonly FormFieldDefinition[], order: readonly string[]): FormFieldDefinition[] {
  const at = new Map(order.map((key, i) => [key, i]));
  return [...fields].sort((a, b) => (at.get(a.id) ?? Infinity) - (at.get(b.id) ?? Infinity));
}

/** One field of the form in its place: a built-in one or one of the source's own. */
export type FormItem = { kind: 'built_in'; field: BuiltInField } | { kind: 'own'; field: FormFieldDefinition };

export function formItems(layout: FormLayout, fields: readonly FormFieldDefinition[]): FormItem[] {
  const builtIns = new Map(layout.builtIns.map((b) => [b.name as string, b]));
  const own = new Map(fields.map((f) => [f.id, f]));
  return completeOrder(layout.order, fields).map((key): FormItem => {
    const builtIn = builtIns.get(key);
    return builtIn ? { kind: 'built_in', field: builtIn } : { kind: 'own', field: own.get(key)! };
  });
}

export interface BuiltInChange {
  label?: string | null;
  shown: boolean;
  required: boolean;
}

export const LAYOUT_MESSAGES = {
  noContact: `Keep at least one of ${CONTACT_NAMES.map((n) => DEFAULT_BUILT_IN_LABELS[n]).join(
    ', ',
  )} on the form: every lead needs a way to reach the person.`,
  hiddenRequired: 'A hidden field cannot be required: show it, or untick Required.',
} as const;

/**
 * A built-in field's new settings, checked against the rest of the form. Hidden and required together is refused
 * (not quietly made optional), so the owner sees the form they asked for; so is hiding the last contact field.
 * A label equal to the default is kept as the default (null).
 */
export function checkBuiltInChange(
  name: string,
  change: BuiltInChange,
  builtIns: readonly BuiltInField[],
): BuiltInField {
  if (!isBuiltInName(name)) {
    throw new AppError(
      'form_field_not_found',
      `The form has no built-in field ${name}; they are ${BUILT_IN_NAMES.join(', ')}`,
    );
  }
  const errors: FieldError[] = [];
  const label = (change.label ?? '').replace(/\s+/g, ' ').trim();
  if ([...label].length > FORM_LIMITS.label) {
    errors.push({
      field: 'label',
      code: 'too_long',
      max: FORM_LIMITS.label,
      message: `Use at most ${FORM_LIMITS.label} characters`,
    });
  } else if (hasControlCharacters(label)) {
    errors.push({ field: 'label', code: 'invalid', message: 'The label contains a control character; remove it' });
  }
  if (!change.shown && change.required)
    errors.push({ field: 'required', code: 'invalid', message: LAYOUT_MESSAGES.hiddenRequired });
  const contactShown = builtIns.some((b) => b.name !== name && CONTACT_NAMES.includes(b.name) && b.shown);
  if (!change.shown && CONTACT_NAMES.includes(name) && !contactShown) {
    errors.push({ field: 'shown', code: 'invalid', message: LAYOUT_MESSAGES.noContact });
  }
  if (errors.length) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return {
    name,
    label: label === '' || label === DEFAULT_BUILT_IN_LABELS[name] ? null : label,
    shown: change.shown,
    required: change.required,
  };
}
