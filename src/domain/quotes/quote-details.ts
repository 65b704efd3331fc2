import type { Updateable } from 'kysely';
import type { QuoteTable } from '../../storage/schema.js';
import { AppError, type FieldError } from '../errors.js';
import { checkOptionalText } from '../settings/quote-settings.js';
import { checkEmail } from '../email-address.js';

/** What a draft's details a save may change; each is optional, and an empty text clears it. */
export interface QuoteDetails {
  title?: string;
  note?: string;
  terms?: string;
  /** `YYYY-MM-DD`, today or later in the workspace's time zone. */
  validUntil?: string;
  customerName?: string;
  customerEmail?: string;
  customerPhone?: string;
  customerAddress?: string;
  /** Whether the customer's page says how each quantity was measured (each line's `source.note`). */
  showMeasurements?: boolean;
  /** The sender's message in the email Send queues; empty for none. */
  sendMessage?: string;
}

/**
 * Checks a draft's details against their rules (`today` in the workspace's time zone, for valid-until): the columns
 * to set, and every refusal at once, each next to its field.
 */
export function checkQuoteDetails(
  d: QuoteDetails,
  today: string,
): { set: Updateable<QuoteTable>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const check = <T>(field: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push(...(error.fieldErrors ?? [{ field, code: 'invalid' as const, message: error.detail }]));
      return undefined;
    }
  };
  const text = (value: string | undefined, field: string, label: string, max: number, multiline: boolean) =>
    value === undefined ? undefined : check(field, () => checkOptionalText(value, field, label, max, multiline));
  const changes = {
    title: text(d.title, 'title', 'The title', 200, false),
    note: text(d.note, 'note', 'The note', 5000, true),
    terms: text(d.terms, 'terms', 'The terms', 5000, true),
    customer_name: text(d.customerName, 'customerName', "The customer's name", 200, false),
    customer_email:
      d.customerEmail === undefined
        ? undefined
        : check('customerEmail', () =>
            d.customerEmail!.trim() === '' ? null : checkEmail(d.customerEmail!, 'customerEmail'),
          ),
    customer_phone: text(d.customerPhone, 'customerPhone', "The customer's phone", 40, false),
    customer_address: text(d.customerAddress, 'customerAddress', "The customer's address", 500, true),
    show_measurements: d.showMeasurements === undefined ? undefined : d.showMeasurements ? 1 : 0,
    send_message: text(d.sendMessage, 'sendMessage', 'The message', 2000, true),
    valid_until:
      d.validUntil === undefined
        ? undefined
        : check('validUntil', () => {
            const day = d.validUntil!.trim();
            const parsed = new Date(`${day}T00:00:00Z`);
            if (
              !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
              Number.isNaN(parsed.getTime()) ||
              parsed.toISOString().slice(0, 10) !== day
            ) {
              throw new AppError('invalid_fields', 'Valid until is a date, YYYY-MM-DD', [
                { field: 'validUntil', code: 'invalid', message: 'Give a date such as 2026-12-31' },
              ]);
            }
            return day;
          }),
  };
  if (changes.valid_until && changes.valid_until < today)
    errors.push({ field: 'validUntil', code: 'invalid', message: `Valid until is today (${today}) or later` });
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Updateable<QuoteTable>;
  return { set, errors };
}
