import { AppError, type FieldError } from '../errors.js';
import { parseAmount } from '../money.js';
import type { WorkspaceSettings } from '../settings/workspace-settings.js';
import {
  checkCustomerDescription,
  checkHundredths,
  checkItemName,
  checkMeasure,
  checkMeasureFitsUnit,
  checkTaxNames,
  checkUnit,
  checkWaste,
  type Measure,
  type Unit,
} from './price-list-item.js';

/** An item as a person types it (the CLI's flags, a form, a CSV row): decimals as text, in the workspace's currency. */
export interface ItemFields {
  name: string;
  unit: string;
  /** A decimal amount, "42.50". */
  price: string;
  measure?: string;
  /** Percent, "10". */
  waste?: string;
  /** "2" coats. */
  coats?: string;
  /** What one pack covers, in the item's unit; empty for none. */
  pack?: string;
  /** Tax names; when not given, the workspace's taxes that are on by default. */
  taxes?: string[];
  /** What the customer reads after the name on a quote line; empty for nothing. */
  customerDescription?: string;
}

export interface ItemValues {
  name: string;
  unit: Unit;
  unitPrice: number;
  measure: Measure | null;
  waste: number;
  coats: number;
  pack: number | null;
  taxes: string[];
  /** Undefined when not given (a CSV without the column): an item it replaces keeps its own. */
  customerDescription: string | null | undefined;
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

/** Every field checked, every refusal reported at once (`invalid_fields`, prefixed with `where`, e.g. "Row 3: "). */
export function checkItemFields(fields: ItemFields, settings: WorkspaceSettings, where = ''): ItemValues {
  const errors: FieldError[] = [];
  const name = checked(errors, 'name', () => checkItemName(fields.name));
  const unit = checked(errors, 'unit', () => checkUnit(fields.unit));
  const unitPrice = checked(errors, 'price', () => parseAmount(fields.price, settings.currency));
  const measure = checked(errors, 'measure', () => checkMeasure(fields.measure ?? ''));
  const waste = checked(errors, 'waste', () => checkWaste(fields.waste ?? ''));
  const coats = checked(errors, 'coats', () =>
    fields.coats === undefined || fields.coats.trim() === '' ? 100 : checkHundredths(fields.coats, 'coats', 'Coats'),
  );
  const pack = checked(errors, 'pack', () =>
    fields.pack === undefined || fields.pack.trim() === '' ? null : checkHundredths(fields.pack, 'pack', 'A pack'),
  );
  const taxes = checked(errors, 'taxes', () =>
    fields.taxes === undefined
      ? settings.taxes.filter((t) => t.onByDefault).map((t) => t.name)
      : checkTaxNames(fields.taxes, settings.taxes),
  );
  const customerDescription = checked(errors, 'customerDescription', () =>
    fields.customerDescription === undefined ? undefined : checkCustomerDescription(fields.customerDescription),
  );
  if (errors.length === 0) checked(errors, 'unit', () => checkMeasureFitsUnit(measure, unit));
  if (errors.length > 0) {
    throw new AppError(
      'invalid_fields',
      where + errors.map((e) => e.message).join('; '),
      errors.map((e) => ({ ...e, message: where + e.message })),
    );
  }
  return { name, unit, unitPrice, measure, waste, coats, pack, taxes, customerDescription };
}

export function itemRow(values: ItemValues) {
  return {
    name: values.name,
    unit: values.unit,
    unit_price: values.unitPrice,
    taxes: JSON.stringify(values.taxes),
    measure: values.measure,
    waste: values.waste,
    coats: values.coats,
    pack: values.pack,
    ...(values.customerDescription !== undefined ? { customer_description: values.customerDescription } : {}),
  };
}
