import { checkDay, checkDayRange } from '../day-range.js';
import { AppError } from '../errors.js';
import { addDays } from '../quotes/quote-view.js';

/** The report's periods (docs/quotes.md, "What wins"): this month, the last 3 months (the default), 12 months. */
export const REPORT_PERIODS = ['month', '3-months', '12-months'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

export const DEFAULT_PERIOD: ReportPeriod = '3-months';

/** A period as days, both included, in the workspace's time zone. */
export interface ReportRange {
  from: string;
  to: string;
}

/** The first day of the month `months` before the month of `day` (`YYYY-MM-DD`). */
export function monthStart(day: string, monthsBack = 0): string {
  const at = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() - monthsBack);
  return at.toISOString().slice(0, 10);
}

/** The last day of the month of `day`. */
export function monthEnd(day: string): string {
  return addDays(monthStart(addDays(monthStart(day), 31)), -1);
}

/** `YYYY-MM` of every month from `from`'s to `to`'s, in order. */
export function monthsOf(range: ReportRange): string[] {
  const months: string[] = [];
  for (let m = monthStart(range.from); m <= range.to; m = monthStart(addDays(m, 31))) months.push(m.slice(0, 7));
  return months;
}

/** A preset as whole months ending with the current one (`today` in the workspace's zone). */
export function presetRange(period: ReportPeriod, today: string): ReportRange {
  const back = period === 'month' ? 0 : period === '3-months' ? 2 : 11;
  return { from: monthStart(today, back), to: monthEnd(today) };
}

export function checkPeriod(value: string): ReportPeriod {
  if (!(REPORT_PERIODS as readonly string[]).includes(value)) {
    throw new AppError('invalid_fields', `The period is one of ${REPORT_PERIODS.join(', ')}`, [
      { field: 'period', code: 'invalid', message: `Choose ${REPORT_PERIODS.join(', ')}` },
    ]);
  }
  return value as ReportPeriod;
}

/**
 * The range a report covers: `from`–`to` (days, both included; `to` defaults to today), else the preset (the last 3
 * months unless told). `to` without `from` is refused, as is a range that ends before it starts or spans more than
 * MAX_RANGE_MONTHS months.
 */
export function resolveRange(input: { period?: ReportPeriod; from?: string; to?: string }, today: string): ReportRange {
  if (input.from === undefined || input.from.trim() === '') {
    if (input.to !== undefined && input.to.trim() !== '')
      throw new AppError('invalid_fields', 'Give the first day too (from)', [
        { field: 'from', code: 'required', message: 'The first day of the range' },
      ]);
    return presetRange(input.period ?? DEFAULT_PERIOD, today);
  }
  const from = checkDay('from', input.from);
  const to = input.to === undefined || input.to.trim() === '' ? today : checkDay('to', input.to);
  return checkDayRange(from, to);
}
