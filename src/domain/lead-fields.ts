import { AppError, type FieldError } from './errors.js';

/** Bounds in Unicode code points, counted after trimming (docs/api.md). */
export const LEAD_FIELD_BOUNDS = { name: 120, phone: 40, email: 160, address: 240, notes: 2000 } as const;

export type LeadFieldName = keyof typeof LEAD_FIELD_BOUNDS;

export const LEAD_FIELD_NAMES = Object.keys(LEAD_FIELD_BOUNDS) as LeadFieldName[];

/** Unknown fields are kept as `extra`, within these limits (docs/api.md). */
export const EXTRA_LIMITS = { fields: 50, keyLength: 100, valueLength: 2000 } as const;

/** The honeypot: a field people never see, so any value in it marks a bot. */
export const HONEYPOT_FIELD = 'website';
export const BOT_CHECK_TOKEN_FIELD = 'botCheckToken';
/** Accepted as an alias of `notes`. */
export const NOTES_ALIAS = 'message';
/** The page the form was on (the hosted form's script sends the embedding page's address); http(s) only. */
export const PAGE_URL_FIELD = 'pageUrl';
export const PAGE_URL_MAX = 2000;

/** Fields with a meaning of their own: a repeated form key for one of these uses its first value. */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...LEAD_FIELD_NAMES,
  NOTES_ALIAS,
  HONEYPOT_FIELD,
  BOT_CHECK_TOKEN_FIELD,
  PAGE_URL_FIELD,
]);

export interface LeadFields {
  name: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  notes: string | null;
  /** An absolute http(s) address, at most PAGE_URL_MAX characters. */
  pageUrl: string | null;
  /** Unknown fields as text, in the order sent. */
  extra: Record<string, string>;
}

function codePoints(text: string): number {
  return [...text].length;
}

/**
 * Whether `text` has more than `max` code points. A string is never longer in code points than in UTF-16 units,
 * so a short one is answered without counting (every intake field goes through here).
 */
function longerThan(text: string, max: number): boolean {
  return text.length > max && codePoints(text) > max;
}

/** Absent, null and "" (after trimming) all mean "not given". */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether the honeypot holds anything: whitespace that trims to "" counts as empty, like every text field. */
export function honeypotFilled(body: Record<string, unknown>): boolean {
  return !isBlank(body[HONEYPOT_FIELD]);
}

/** The bot-check token as text, or undefined; never stored, never logged. */
export function botCheckTokenOf(body: Record<string, unknown>): string | undefined {
  const value = body[BOT_CHECK_TOKEN_FIELD];
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Form bodies (urlencoded, multipart) give every key as a list of values. A known field takes its first value
 * (docs/api.md); an unknown key sent several times (a checkbox group) keeps all its values, which become the
 * JSON text of a list in `extra`. Parsers of form bodies hand their result through here, so that a JSON array
 * in a known field, which can only come from a JSON body, stays an `invalid_type`.
 */
export function fromFormEntries(entries: Iterable<[string, string]>): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of entries) {
    const list = grouped.get(key);
    if (list) list.push(value);
    else grouped.set(key, [value]);
  }
  return Object.fromEntries(
    [...grouped].map(([key, values]) => [key, KNOWN_FIELDS.has(key) || values.length === 1 ? values[0] : values]),
  );
}

type TextResult = { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'invalid_type' };

/**
 * A known text field: trimmed text; numbers and booleans as their text; objects and lists are refused.
 * U+0000 is dropped from every text value (known fields and extras): it means nothing to the person reading the
 * inbox, PostgreSQL `text` cannot hold it, and refusing it would lose a real lead over an automation's stray byte.
 */
function readText(value: unknown): TextResult {
  if (value === undefined || value === null) return { kind: 'absent' };
  if (typeof value === 'string') {
    const text = value.replaceAll('\u0000', '').trim();
    return text === '' ? { kind: 'absent' } : { kind: 'text', text };
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return { kind: 'text', text: String(value) };
  }
  return { kind: 'invalid_type' };
}

/** An extra field: like a text field, except that nested JSON is kept as its JSON text. */
function readExtra(value: unknown): string | null {
  const result = readText(value);
  if (result.kind === 'text') return result.text;
  if (result.kind === 'absent') return null;
  return JSON.stringify(value);
}

/** A field name fit to quote in an error: very long keys are cut. */
function shownKey(key: string): string {
  const points = [...key];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : key;
}

/** `pageUrl` as stored, or the problem with it: an absolute http(s) address within the bound. */
function readPageUrl(value: unknown): { url: string | null; error?: FieldError } {
  const result = readText(value);
  if (result.kind === 'absent') return { url: null };
  const field = PAGE_URL_FIELD;
  if (result.kind === 'invalid_type')
    return { url: null, error: { field, code: 'invalid_type', message: `${field} must be text` } };
  if (longerThan(result.text, PAGE_URL_MAX)) {
    return {
      url: null,
      error: {
        field,
        code: 'too_long',
        max: PAGE_URL_MAX,
        message: `${field} must be at most ${PAGE_URL_MAX} characters`,
      },
    };
  }
  let protocol = '';
  try {
    protocol = new URL(result.text).protocol;
  } catch {
    // not an absolute address: refused below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    return {
      url: null,
      error: { field, code: 'invalid', message: `${field} must be an absolute http or https address` },
    };
  }
  return { url: result.text };
}

/**
 * Turns a parsed body (a plain object of unknown values) into lead fields and extras (docs/api.md).
 *
 * Precedence: when none of name/phone/email is present the answer is `missing_contact`, the interface's own
 * documented 400, even if other fields have problems too; those problems ride along in its `errors` so a client
 * still learns everything at once. A contact field that is present but invalid (too long, an object) counts as
 * present, so that case is `invalid_fields` naming it. The honeypot and the bot-check token are never fields.
 */
export function normalizeLeadBody(body: Record<string, unknown>): LeadFields {
  const errors: FieldError[] = [];
  const fields: Omit<LeadFields, 'extra' | 'pageUrl'> = {
    name: null,
    phone: null,
    email: null,
    address: null,
    notes: null,
  };
  const present = new Set<LeadFieldName>();

  const notesGiven = !isBlank(body.notes);
  // `message` stands in for `notes` only when notes is not given; otherwise it is an ordinary extra field.
  const sources: Array<[LeadFieldName, string]> = LEAD_FIELD_NAMES.map((field) =>
    field === 'notes' && !notesGiven && Object.hasOwn(body, NOTES_ALIAS) ? [field, NOTES_ALIAS] : [field, field],
  );
  for (const [field, key] of sources) {
    const result = readText(body[key]);
    if (result.kind === 'absent') continue;
    present.add(field);
    if (result.kind === 'invalid_type') {
      errors.push({ field: key, code: 'invalid_type', message: `${key} must be text, not an object or a list` });
      continue;
    }
    const max = LEAD_FIELD_BOUNDS[field];
    if (longerThan(result.text, max)) {
      errors.push({ field: key, code: 'too_long', max, message: `${key} must be at most ${max} characters` });
      continue;
    }
    fields[field] = result.text;
  }

  const pageUrl = readPageUrl(body[PAGE_URL_FIELD]);
  if (pageUrl.error) errors.push(pageUrl.error);

  const usedKeys = new Set([...sources.map(([, key]) => key), PAGE_URL_FIELD]);
  const extra = new Map<string, string>();
  let extraFields = 0;
  for (const [key, value] of Object.entries(body)) {
    if (usedKeys.has(key) || key === HONEYPOT_FIELD || key === BOT_CHECK_TOKEN_FIELD) continue;
    const text = readExtra(value);
    if (text === null) continue;
    extraFields += 1;
    if (longerThan(key, EXTRA_LIMITS.keyLength)) {
      errors.push({
        field: shownKey(key),
        code: 'too_long',
        max: EXTRA_LIMITS.keyLength,
        message: `Field names may be at most ${EXTRA_LIMITS.keyLength} characters`,
      });
      continue;
    }
    if (longerThan(text, EXTRA_LIMITS.valueLength)) {
      errors.push({
        field: key,
        code: 'too_long',
        max: EXTRA_LIMITS.valueLength,
        message: `${key} must be at most ${EXTRA_LIMITS.valueLength} characters`,
      });
      continue;
    }
    extra.set(key, text);
  }
  if (extraFields > EXTRA_LIMITS.fields) {
    errors.push({
      field: 'extra',
      code: 'too_many',
      max: EXTRA_LIMITS.fields,
      message: `Send at most ${EXTRA_LIMITS.fields} fields besides name, phone, email, address and notes`,
    });
  }

  if (!present.has('name') && !present.has('phone') && !present.has('email')) {
    throw new AppError(
      'missing_contact',
      'Give at least one of name, phone or email, so the lead can be answered',
      errors.length ? errors : undefined,
    );
  }
  if (errors.length) {
    throw new AppError('invalid_fields', `${errors.length} field(s) need fixing; see errors`, errors);
  }
  // Object.fromEntries defines own properties, so a key such as "__proto__" stays an ordinary field.
  return { ...fields, pageUrl: pageUrl.url, extra: Object.fromEntries(extra) };
}

/**
 * What a quarantine row keeps: every submitted field as text, the honeypot included, as sent (not trimmed).
 * The bot-check token is a secret and is left out.
 */
export function quarantineFields(body: Record<string, unknown>): Record<string, string> {
  const kept = new Map<string, string>();
  for (const [key, value] of Object.entries(body)) {
    if (key === BOT_CHECK_TOKEN_FIELD || value === undefined || value === null) continue;
    kept.set(
      key,
      typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value),
    );
  }
  return Object.fromEntries(kept);
}
