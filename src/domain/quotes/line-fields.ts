import { AppError, type FieldError } from '../errors.js';
import { checkUnit } from '../price-list/price-list-item.js';
import { checkText } from '../text-input.js';
import { parseAmount, parseQuantity, type TaxRate } from '../money.js';

/** A line as a person types it in the builder or on the CLI: decimals as text in the quote's currency. */
export interface LineFields {
  description: string;
  /** "23.16"; rounded to 2 decimals half away from zero. */
  quantity: string;
  unit: string;
  /** "42.50"; negative for a discount. */
  price: string;
  /**
   * Tax names of the quote; when not given, a new line carries the taxes on by default, an edited one keeps its own.
   */
  taxes?: string[];
  optional?: boolean;
  /** For an optional line: ticked on the customer's page as the sender leaves it. */
  chosen?: boolean;
}

export interface LineValues {
  description: string;
  quantity: number;
  unit: string;
  unitPrice: number;
  taxes: string[] | undefined;
  optional: boolean | undefined;
  chosen: boolean | undefined;
}

function checked<T>(errors: FieldError[], field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    errors.push(
      ...(error.fieldErrors?.length ? error.fieldErrors : [{ field, code: 'invalid' as const, message: error.detail }]),
    );
    return undefined as T;
  }
}

/** Every field checked, all refusals at once (`invalid_fields` with field errors). */
export function checkLineFields(fields: LineFields, currency: string, rates: readonly TaxRate[]): LineValues {
  const errors: FieldError[] = [];
  const description = checked(errors, 'description', () => {
    const text = checkText(fields.description, 'description', 'The description', { multiline: true }).trim();
    if (text === '')
      throw new AppError('invalid_fields', 'The description is empty', [
        { field: 'description', code: 'required', message: 'Describe the line' },
      ]);
    if (text.length > 1000)
      throw new AppError('invalid_fields', 'The description is longer than 1000 characters', [
        { field: 'description', code: 'too_long', message: 'At most 1000 characters', max: 1000 },
      ]);
    return text;
  });
  const quantity = checked(errors, 'quantity', () => parseQuantity(fields.quantity));
  const unit = checked(errors, 'unit', () => checkUnit(fields.unit));
  const unitPrice = checked(errors, 'price', () => parseAmount(fields.price, currency));
  const taxes = checked(errors, 'taxes', () => {
    if (fields.taxes === undefined) return undefined;
    return fields.taxes
      .map((t) => t.trim())
      .filter(Boolean)
      .map((name) => {
        const rate = rates.find((r) => r.name.toLowerCase() === name.toLowerCase());
        if (!rate) {
          const message =
            `"${name.slice(0, 40)}" is not one of this quote's taxes ` +
            `(${rates.map((r) => r.name).join(', ') || 'none'})`;
          throw new AppError('invalid_fields', message, [{ field: 'taxes', code: 'invalid', message }]);
        }
        return rate.name;
      })
      .filter((name, i, all) => all.indexOf(name) === i);
  });
  if (errors.length > 0) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return { description, quantity, unit, unitPrice, taxes, optional: fields.optional, chosen: fields.chosen };
}
