import { AppError, type FieldError } from '../errors.js';
import type { TaxRate } from '../money.js';
import { checkLineFields, type LineFields } from '../quotes/line-fields.js';

/**
 * A line as a person types it (the quote builder's fields, without optional lines): decimals in the invoice's currency.
 */
export type InvoiceLineFields = Omit<LineFields, 'optional' | 'chosen'>;

export interface InvoiceLineValues {
  description: string;
  quantity: number;
  unit: string;
  unitPrice: number;
  /** Undefined when none were given (a new line then carries the taxes on by default). */
  taxes: string[] | undefined;
}

/**
 * Every field checked by the quote line's rules (description, quantity rounded to hundredths, unit, price in the
 * currency's digits), the taxes against the invoice's own; all refusals at once.
 */
export function checkInvoiceLine(
  fields: InvoiceLineFields,
  currency: string,
  rates: readonly TaxRate[],
): InvoiceLineValues {
  const errors: FieldError[] = [];
  let values: InvoiceLineValues | undefined;
  try {
    const { taxes: _taxes, ...rest } = fields;
    const checked = checkLineFields(rest, currency, rates);
    values = { ...checked, taxes: undefined };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'invalid_fields') throw error;
    errors.push(...(error.fieldErrors ?? []));
  }
  let taxes: string[] | undefined;
  if (fields.taxes !== undefined) {
    taxes = [];
    for (const name of fields.taxes.map((t) => t.trim()).filter(Boolean)) {
      const rate = rates.find((r) => r.name.toLowerCase() === name.toLowerCase());
      if (!rate) {
        const message = `"${name.slice(0, 40)}" is not one of this invoice's taxes (${
          rates.map((r) => r.name).join(', ') || 'none'
        })`;
        errors.push({ field: 'taxes', code: 'invalid', message });
      } else if (!taxes.includes(rate.name)) taxes.push(rate.name);
    }
  }
  if (errors.length > 0 || !values)
    throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return { ...values, taxes };
}
