import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';

/**
 * The invoice settings (docs/invoices.md, "Settings"): what invoice numbers start with, the payment terms a new
 * invoice gets, the payment instructions printed on every invoice, and how long issued invoices are kept.
 */
export const INVOICE_SETTINGS = {
  prefix: { default: 'INV-', max: 12 },
  paymentTerms: { default: 14, max: 365 },
  paymentInstructions: { max: 1000 },
  booksYears: { default: 10, min: 1, max: 50 },
} as const;

/** Credit notes are numbered `CN-0001`, …: an invoice prefix that would make the same numbers is refused. */
export const CREDIT_NOTE_PREFIX = 'CN-';

const invalid = (field: string, message: string) =>
  new AppError('invalid_fields', message, [{ field, code: 'invalid', message }]);

/** Letters, digits and `-`, `_`, `.`, `/`, 1 to 12 of them: `INV-`, `2026/`, `F`. */
export function checkInvoicePrefix(value: string): string {
  const prefix = value.trim();
  if (!/^[A-Za-z0-9._/-]{1,12}$/.test(prefix))
    throw invalid(
      'invoicePrefix',
      `An invoice prefix is 1 to ${INVOICE_SETTINGS.prefix.max} letters, digits or - _ . /, e.g. INV- or 2026/`,
    );
  if (prefix.toUpperCase() === CREDIT_NOTE_PREFIX)
    throw invalid('invoicePrefix', `${CREDIT_NOTE_PREFIX} numbers the credit notes; choose another prefix`);
  return prefix;
}

/** Whole days from 0 (due on receipt) to 365. */
export function checkPaymentTerms(value: string | number, field = 'paymentTerms'): number {
  const text = String(value).trim();
  const days = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(days >= 0 && days <= INVOICE_SETTINGS.paymentTerms.max))
    throw invalid(
      field,
      `Payment terms are a whole number of days from 0 (due on receipt) to ${INVOICE_SETTINGS.paymentTerms.max}`,
    );
  return days;
}

/** Free text up to 1,000 characters, line breaks kept; empty clears them. */
export function checkPaymentInstructions(value: string): string | null {
  const text = checkText(value, 'paymentInstructions', 'The payment instructions', { multiline: true }).trim();
  if (text === '') return null;
  const max = INVOICE_SETTINGS.paymentInstructions.max;
  if ([...text].length > max)
    throw new AppError('invalid_fields', `The payment instructions are longer than ${max} characters`, [
      { field: 'paymentInstructions', code: 'too_long', message: `At most ${max} characters`, max },
    ]);
  return text;
}

/** Whole years from 1 to 50. */
export function checkBooksYears(value: string | number): number {
  const text = String(value).trim();
  const years = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  const { min, max } = INVOICE_SETTINGS.booksYears;
  if (!(years >= min && years <= max))
    throw invalid('booksYears', `The books are kept a whole number of years from ${min} to ${max}`);
  return years;
}
