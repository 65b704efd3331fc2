import { AppError } from './errors.js';

/**
 * A range of days as people ask for one (`YYYY-MM-DD`, both days included): the quotes' report and the accountant's
 * export check it the same way, each refusal beside its field (docs/quotes.md, "What wins"; docs/invoices.md, "The
 * books").
 */

/** Ranges longer than this many calendar months are refused. */
export const MAX_RANGE_MONTHS = 120;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day, as typed (trimmed), or `invalid_fields` on `field`. */
export function checkDay(field: 'from' | 'to', value: string): string {
  const text = value.trim();
  const valid = DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
  if (!valid) {
    throw new AppError('invalid_fields', `${field === 'from' ? 'From' : 'To'} must be a day, e.g. 2026-03-31`, [
      { field, code: 'invalid', message: 'A day, e.g. 2026-03-31' },
    ]);
  }
  return text;
}

/** Two checked days: refused when `to` is before `from` or the range touches more than MAX_RANGE_MONTHS months. */
export function checkDayRange(from: string, to: string): { from: string; to: string } {
  if (to < from)
    throw new AppError('invalid_fields', 'The range ends before it starts', [
      { field: 'to', code: 'invalid', message: 'A day on or after the first day' },
    ]);
  const month = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  if (month(to) - month(from) + 1 > MAX_RANGE_MONTHS)
    throw new AppError('invalid_fields', `A range covers at most ${MAX_RANGE_MONTHS / 12} years`, [
      { field: 'from', code: 'invalid', message: `At most ${MAX_RANGE_MONTHS / 12} years` },
    ]);
  return { from, to };
}
