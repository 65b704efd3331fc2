import { AppError, type FieldError } from '../errors.js';
import { parseAmount } from '../money.js';
import { checkText } from '../text-input.js';
import { PAYMENT_METHODS, type PaymentMethod } from './invoice-view.js';

/** A payment as a person types it: the amount as a decimal in the invoice's currency, the date `YYYY-MM-DD`. */
export interface PaymentFields {
  amount: string;
  date: string;
  method: string;
  reference?: string;
}

export interface PaymentValues {
  amount: number;
  date: string;
  method: PaymentMethod;
  reference: string | null;
}

export const REFERENCE_MAX = 200;

/** A calendar date as typed, `YYYY-MM-DD`, or undefined when it is not one. */
export function calendarDate(text: string): string | undefined {
  const day = text.trim();
  const parsed = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    return undefined;
  return day;
}

/**
 * Every field of a payment checked, all refusals at once (`invalid_fields`): an amount above 0 in the currency's
 * digits, a date that is today or earlier in the workspace's time zone (a payment is recorded once made), a method
 * of the list, a reference of one line up to 200 characters.
 */
export function checkPaymentFields(fields: PaymentFields, currency: string, today: string): PaymentValues {
  const errors: FieldError[] = [];
  let amount = 0;
  try {
    amount = parseAmount(fields.amount, currency, 'amount');
    if (amount <= 0) errors.push({ field: 'amount', code: 'invalid', message: 'Give an amount above 0' });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    errors.push(...(error.fieldErrors ?? []));
  }
  const date = calendarDate(fields.date);
  if (!date) errors.push({ field: 'date', code: 'invalid', message: 'Give a date such as 2026-12-01' });
  else if (date > today)
    errors.push({
      field: 'date',
      code: 'invalid',
      message: `A payment is recorded once it is made: choose today (${today}) or an earlier date`,
    });
  const method = fields.method
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!(PAYMENT_METHODS as readonly string[]).includes(method))
    errors.push({
      field: 'method',
      code: 'invalid',
      message: 'Choose bank transfer, card, cash, cheque or other',
    });
  let reference: string | null = null;
  if (fields.reference !== undefined) {
    try {
      const text = checkText(fields.reference, 'reference', 'The reference').trim();
      if ([...text].length > REFERENCE_MAX)
        errors.push({
          field: 'reference',
          code: 'too_long',
          message: `At most ${REFERENCE_MAX} characters`,
          max: REFERENCE_MAX,
        });
      else reference = text === '' ? null : text;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push(...(error.fieldErrors ?? []));
    }
  }
  if (errors.length > 0) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return { amount, date: date!, method: method as PaymentMethod, reference };
}
