import { AppError } from '../errors.js';

/**
 * The follow-up settings (docs/quotes.md, "Follow-ups"): after how many days without an answer the sender is
 * reminded (3 unless chosen, or off), on which days after a send the customer is reminded (off unless chosen, at most
 * two), and on which days after an invoice's due date its customer is (off unless chosen, at most three).
 */
export const FOLLOW_UP_DAYS = { default: 3, max: 30 } as const;
export const CUSTOMER_REMINDERS = { count: 2, max: 60, example: '3,7' } as const;
export const INVOICE_REMINDERS = { count: 3, max: 90, example: '7,14,30' } as const;

/** `off`, or a whole number of days from 1 to FOLLOW_UP_DAYS.max. */
export function checkFollowUpDays(value: string | number): number | null {
  const text = String(value).trim().toLowerCase();
  if (text === 'off') return null;
  const days = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= FOLLOW_UP_DAYS.max)) {
    throw new AppError('invalid_fields', `Follow-up days are off or 1 to ${FOLLOW_UP_DAYS.max}`, [
      {
        field: 'followUpDays',
        code: 'invalid',
        message: `Choose off or a number of days from 1 to ${FOLLOW_UP_DAYS.max}`,
      },
    ]);
  }
  return days;
}

/**
 * `off` (or empty), or days separated by commas, each a whole number from 1 to `rule.max`, in increasing order, at most
 * `rule.count` of them: `3,7`.
 */
export function checkReminderDays(
  value: string,
  field: 'customerReminders' | 'invoiceReminders',
  rule: { count: number; max: number; example: string },
): number[] {
  const text = value.trim().toLowerCase();
  if (text === 'off' || text === '') return [];
  const parts = text.split(',').map((p) => p.trim());
  const days = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  const what = field === 'customerReminders' ? 'after the send' : 'after the due date';
  const refuse = (detail: string) => {
    throw new AppError('invalid_fields', detail, [
      {
        field,
        code: 'invalid',
        message: `Off, or up to ${rule.count} days ${what} from 1 to ${rule.max}, in order, e.g. ${rule.example}`,
      },
    ]);
  };
  if (days.length > rule.count) refuse(`At most ${rule.count} reminders`);
  if (days.some((d) => !(d >= 1 && d <= rule.max)))
    refuse(`Each reminder is a whole number of days from 1 to ${rule.max}`);
  if (days.some((d, i) => i > 0 && d <= days[i - 1]!)) refuse('The days go in increasing order, each once');
  return days;
}

/** The days as the settings show and take them: `3,7`, or `off`. */
export const reminderDaysText = (days: readonly number[]): string => (days.length === 0 ? 'off' : days.join(','));
