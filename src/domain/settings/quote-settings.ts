import { AppError } from '../errors.js';
import { parseRate } from '../money.js';
import { checkText } from '../text-input.js';
import { checkEmail } from '../email-address.js';
import { MAX_TAXES, type TaxNumber, type WorkspaceTax } from './workspace-settings.js';

/** One change to the workspace's taxes: set `name` to `rate` (a percentage, "9.975"), or `off` to remove it. */
export interface TaxChange {
  name: string;
  rate: string;
  /** Whether new lines carry it; kept as it was when not given (on for a new tax). */
  onByDefault?: boolean;
  /** The fields a refusal of this change is said beside (a form's row); `taxes` when not given (the CLI). */
  fields?: { name: string; rate: string };
}

/** One change to the tax registration numbers: an empty value removes that name. */
export interface TaxNumberChange {
  name: string;
  value: string;
}

const invalid = (field: string, message: string, detail = message) =>
  new AppError('invalid_fields', detail, [{ field, code: 'invalid', message }]);

function checkShort(value: string, field: string, label: string, max: number): string {
  const text = checkText(value, field, label).trim();
  if (text === '') throw invalid(field, `${label} is empty`);
  if (text.length > max)
    throw new AppError('invalid_fields', `${label} is longer than ${max} characters`, [
      { field, code: 'too_long', message: `At most ${max} characters`, max },
    ]);
  return text;
}

/** The taxes after `changes`, applied in order; names compare case-insensitively. At most three remain. */
export function applyTaxChanges(current: readonly WorkspaceTax[], changes: readonly TaxChange[]): WorkspaceTax[] {
  const taxes = current.map((t) => ({ ...t }));
  for (const change of changes) {
    const nameField = change.fields?.name ?? 'taxes';
    const name = checkShort(change.name, nameField, 'A tax name', 40);
    if (name.includes('=') || name.includes(',')) throw invalid(nameField, 'A tax name cannot hold "=" or ","');
    const at = taxes.findIndex((t) => t.name.toLowerCase() === name.toLowerCase());
    if (change.rate.trim().toLowerCase() === 'off') {
      if (at >= 0) taxes.splice(at, 1);
      continue;
    }
    const rate = parseRate(change.rate, change.fields?.rate ?? 'taxes');
    if (at >= 0) taxes[at] = { name, rate, onByDefault: change.onByDefault ?? taxes[at]!.onByDefault };
    else taxes.push({ name, rate, onByDefault: change.onByDefault ?? true });
  }
  if (taxes.length > MAX_TAXES) {
    throw new AppError('invalid_fields', `A workspace has at most ${MAX_TAXES} taxes`, [
      {
        field: 'taxes',
        code: 'too_many',
        message: `At most ${MAX_TAXES} taxes; remove one first (NAME=off)`,
        max: MAX_TAXES,
      },
    ]);
  }
  return taxes;
}

export function applyTaxNumberChanges(current: readonly TaxNumber[], changes: readonly TaxNumberChange[]): TaxNumber[] {
  const numbers = current.map((n) => ({ ...n }));
  for (const change of changes) {
    const name = checkShort(change.name, 'taxNumbers', "A tax number's name", 40);
    const at = numbers.findIndex((n) => n.name.toLowerCase() === name.toLowerCase());
    const value = checkText(change.value, 'taxNumbers', 'A tax number').trim();
    if (value === '') {
      if (at >= 0) numbers.splice(at, 1);
      continue;
    }
    if (value.length > 60) throw invalid('taxNumbers', 'A tax number is at most 60 characters');
    if (at >= 0) numbers[at] = { name, value };
    else numbers.push({ name, value });
  }
  if (numbers.length > 5) throw invalid('taxNumbers', 'At most 5 tax numbers');
  return numbers;
}

export function checkQuoteValidDays(value: string | number): number {
  const text = String(value).trim();
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > 365)
    throw invalid('quoteValidDays', 'Give a number of days from 1 to 365');
  return days;
}

/** Optional text: empty clears it (null). */
export function checkOptionalText(
  value: string,
  field: string,
  label: string,
  max: number,
  multiline: boolean,
): string | null {
  const text = checkText(value, field, label, { multiline }).trim();
  if (text === '') return null;
  if (text.length > max)
    throw new AppError('invalid_fields', `${label} is longer than ${max} characters`, [
      { field, code: 'too_long', message: `At most ${max} characters`, max },
    ]);
  return text;
}

export function checkBusinessEmail(value: string): string | null {
  return value.trim() === '' ? null : checkEmail(value, 'businessEmail');
}
