import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import {
  EXTRA_LIMITS,
  LEAD_FIELD_BOUNDS,
  fromFormEntries,
  honeypotFilled,
  normalizeLeadBody,
  quarantineFields,
} from '../../src/domain/lead-fields.js';

function refusal(body: Record<string, unknown>): AppError {
  try {
    normalizeLeadBody(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

const cp = (s: string) => [...s].length;
const TECHNOLOGIST = '👩‍💻'; // three code points: U+1F469 U+200D U+1F4BB
const COMBINING_E = 'e\u0301'; // "é" as e + combining acute: two code points
const PRECOMPOSED_E = '\u00e9'; // "é" as one code point

/** A string of exactly n code points made of the given unit (and plain letters to fill). */
function ofCodePoints(unit: string, n: number): string {
  const units = Math.floor(n / cp(unit));
  return unit.repeat(units) + 'a'.repeat(n - units * cp(unit));
}

describe('lead field normalization (docs/api.md)', () => {
  it('trims values, keeps inner text, treats "" and null as absent, takes numbers and booleans as text', () => {
    const fields = normalizeLeadBody({
      name: '  Ada Lovelace \n',
      phone: 4155550100,
      email: '',
      address: null,
      notes: '  line one\n\nline two  ',
      vip: true,
    });
    expect(fields).toEqual({
      name: 'Ada Lovelace',
      phone: '4155550100',
      email: null,
      address: null,
      notes: 'line one\n\nline two',
      pageUrl: null,
      extra: { vip: 'true' },
    });
  });

  for (const [field, max] of Object.entries(LEAD_FIELD_BOUNDS)) {
    for (const [label, unit] of [
      ['ascii', 'x'],
      ['emoji ZWJ sequence', TECHNOLOGIST],
      ['precomposed accent', PRECOMPOSED_E],
      ['combining accent', COMBINING_E],
    ] as const) {
      it(`${field}: ${max} code points of ${label} pass, ${max + 1} fail with too_long`, () => {
        const atLimit = ofCodePoints(unit, max);
        expect(cp(atLimit)).toBe(max);
        const base = field === 'name' ? {} : { name: 'N' };
        expect(normalizeLeadBody({ ...base, [field]: atLimit })[field as 'name']).toBe(atLimit);

        const over = atLimit + 'z';
        const error = refusal({ ...base, [field]: over });
        expect(error.code).toBe('invalid_fields');
        expect(error.fieldErrors).toEqual([
          { field, code: 'too_long', max, message: `${field} must be at most ${max} characters` },
        ]);
      });
    }
  }

  it('counts code points after trimming', () => {
    const padded = `   ${'x'.repeat(LEAD_FIELD_BOUNDS.name)}   `;
    expect(normalizeLeadBody({ name: padded }).name).toHaveLength(LEAD_FIELD_BOUNDS.name);
  });

  it('reports every field problem at once', () => {
    const error = refusal({
      name: { first: 'Ada' },
      phone: ['1', '2'],
      email: 'e'.repeat(161),
      notes: 'n'.repeat(2001),
    });
    expect(error.code).toBe('invalid_fields');
    expect(error.fieldErrors?.map((e) => [e.field, e.code, e.max])).toEqual([
      ['name', 'invalid_type', undefined],
      ['phone', 'invalid_type', undefined],
      ['email', 'too_long', 160],
      ['notes', 'too_long', 2000],
    ]);
  });

  it('missing_contact wins when none of name/phone/email is present, and carries the other problems', () => {
    expect(refusal({ address: 'Main St 1' }).code).toBe('missing_contact');
    expect(refusal({ name: '   ', phone: null, email: '' }).code).toBe('missing_contact');
    const both = refusal({ notes: 'n'.repeat(2001) });
    expect(both.code).toBe('missing_contact');
    expect(both.fieldErrors).toEqual([
      { field: 'notes', code: 'too_long', max: 2000, message: 'notes must be at most 2000 characters' },
    ]);
    // A present but invalid contact field counts as present: the answer names it.
    expect(refusal({ email: { a: 1 } }).code).toBe('invalid_fields');
  });

  it('takes message as notes; when both are sent, notes wins and message stays as an extra field', () => {
    expect(normalizeLeadBody({ name: 'A', message: ' hi ' })).toMatchObject({ notes: 'hi', extra: {} });
    expect(normalizeLeadBody({ name: 'A', notes: 'n', message: 'm' })).toMatchObject({
      notes: 'n',
      extra: { message: 'm' },
    });
    expect(normalizeLeadBody({ name: 'A', notes: '', message: 'm' })).toMatchObject({ notes: 'm', extra: {} });
    expect(refusal({ name: 'A', message: 'm'.repeat(2001) }).fieldErrors?.[0]).toMatchObject({
      field: 'message',
      code: 'too_long',
      max: 2000,
    });
  });

  it('keeps unknown fields as text, nested JSON as its JSON text, and never the honeypot or the bot-check token', () => {
    const fields = normalizeLeadBody({
      name: 'A',
      budget: 5000,
      rooms: ['kitchen', 'bath'],
      meta: { a: 1 },
      blank: '  ',
      gone: null,
      website: '',
      botCheckToken: 'secret-token',
    });
    expect(fields.extra).toEqual({ budget: '5000', rooms: '["kitchen","bath"]', meta: '{"a":1}' });

    const proto = normalizeLeadBody(JSON.parse('{"name":"A","__proto__":"x"}') as Record<string, unknown>);
    expect(Object.hasOwn(proto.extra, '__proto__')).toBe(true);
    expect(JSON.stringify(proto.extra)).toBe('{"__proto__":"x"}');
  });

  it('bounds extras: at most 50 fields, keys up to 100 and values up to 2,000 code points', () => {
    const fifty = Object.fromEntries(Array.from({ length: EXTRA_LIMITS.fields }, (_, i) => [`f${i}`, 'v']));
    expect(Object.keys(normalizeLeadBody({ name: 'A', ...fifty }).extra)).toHaveLength(50);
    expect(refusal({ name: 'A', ...fifty, f50: 'v' }).fieldErrors).toEqual([
      expect.objectContaining({ field: 'extra', code: 'too_many', max: 50 }),
    ]);
    // Absent values do not count.
    expect(Object.keys(normalizeLeadBody({ name: 'A', ...fifty, f50: '' }).extra)).toHaveLength(50);

    const key100 = ofCodePoints(TECHNOLOGIST, 100);
    expect(normalizeLeadBody({ name: 'A', [key100]: 'v' }).extra[key100]).toBe('v');
    expect(refusal({ name: 'A', [`${key100}k`]: 'v' }).fieldErrors?.[0]).toMatchObject({ code: 'too_long', max: 100 });

    const value2000 = ofCodePoints(COMBINING_E, 2000);
    expect(normalizeLeadBody({ name: 'A', x: value2000 }).extra.x).toBe(value2000);
    expect(refusal({ name: 'A', x: `${value2000}!` }).fieldErrors).toEqual([
      { field: 'x', code: 'too_long', max: 2000, message: 'x must be at most 2000 characters' },
    ]);
  });

  it('form entries: a repeated known field takes its first value; a repeated unknown key keeps all values', () => {
    const body = fromFormEntries([
      ['name', 'First'],
      ['name', 'Second'],
      ['interest', 'kitchen'],
      ['interest', 'bath'],
      ['city', 'Oslo'],
    ]);
    expect(normalizeLeadBody(body)).toMatchObject({
      name: 'First',
      extra: { interest: '["kitchen","bath"]', city: 'Oslo' },
    });
  });

  it('the honeypot counts when it holds any value other than absent, null or ""', () => {
    expect(honeypotFilled({})).toBe(false);
    expect(honeypotFilled({ website: null })).toBe(false);
    expect(honeypotFilled({ website: '' })).toBe(false);
    expect(honeypotFilled({ website: '  ' })).toBe(false);
    expect(honeypotFilled({ website: 'http://spam.example' })).toBe(true);
    expect(honeypotFilled({ website: 0 })).toBe(true);
    expect(honeypotFilled({ website: false })).toBe(true);
    expect(honeypotFilled({ website: {} })).toBe(true);
  });

  it('quarantine keeps every submitted field as sent, the honeypot included, the bot-check token left out', () => {
    expect(quarantineFields({ name: ' A ', website: 'x', n: 1, o: { a: 1 }, z: null, botCheckToken: 't' })).toEqual({
      name: ' A ',
      website: 'x',
      n: '1',
      o: '{"a":1}',
    });
  });
});
