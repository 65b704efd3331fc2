import { DEFAULT_BUILT_IN_LABELS } from '../../domain/forms/form-layout.js';
import { LEAD_FIELD_BOUNDS, type LeadFieldName } from '../../domain/lead-fields.js';

export interface FormField {
  name: LeadFieldName;
  label: string;
  /** One of name/phone/email: described by the "at least one" hint. */
  contact: boolean;
  /** `textarea` for the message, otherwise the input type (it picks the phone keyboard on mobiles). */
  control: 'text' | 'tel' | 'email' | 'textarea';
  autocomplete: string;
  /** The intake bound of the field. */
  maxlength: number;
}

function field(name: LeadFieldName, control: FormField['control'], autocomplete: string): FormField {
  const contact = name === 'name' || name === 'phone' || name === 'email';
  return {
    name,
    label: DEFAULT_BUILT_IN_LABELS[name],
    contact,
    control,
    autocomplete,
    maxlength: LEAD_FIELD_BOUNDS[name],
  };
}

/** The lead fields as a person sees them (until the owner relabels, hides or moves them: form-page.ts). */
export const FORM_FIELDS: readonly FormField[] = [
  field('name', 'text', 'name'),
  field('phone', 'tel', 'tel'),
  field('email', 'email', 'email'),
  field('address', 'text', 'street-address'),
  field('notes', 'textarea', 'off'),
];

export const CONTACT_FIELDS: readonly LeadFieldName[] = FORM_FIELDS.filter((f) => f.contact).map((f) => f.name);

/** Element ids, shared by the markup and the script. */
export const fieldId = (name: string) => `f-${name}`;
export const fieldErrorId = (name: string) => `f-${name}-error`;
export const CONTACT_HINT_ID = 'contact-hint';

/** The hidden field that carries the form's Idempotency-Key (a retried submit is one lead, not two). */
export const FORM_KEY_FIELD = 'idempotencyKey';
