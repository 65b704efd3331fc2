import type { Selectable } from 'kysely';
import type { PriceListItemTable } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { formatDecimal, parseDecimal, parseRate } from '../money.js';
import type { WorkspaceTax } from '../settings/workspace-settings.js';
import { checkText } from '../text-input.js';
import type { Role } from '../roles.js';

/** What a line is counted in (docs/quotes.md, "The price list"). */
export const UNITS = ['m2', 'ft2', 'm', 'ft', 'm3', 'ft3', 'each', 'hour', 'fixed'] as const;
export type Unit = (typeof UNITS)[number];

/** Which of a room's figures a measured item is priced by. */
export const MEASURES = [
  'floor_area',
  'ceiling_area',
  'wall_area_net',
  'wall_area_gross',
  'perimeter',
  'skirting',
  'volume',
  'doors',
  'windows',
] as const;
export type Measure = (typeof MEASURES)[number];

export type MeasureKind = 'area' | 'length' | 'volume' | 'count';

export const KIND_OF_MEASURE: Record<Measure, MeasureKind> = {
  floor_area: 'area',
  ceiling_area: 'area',
  wall_area_net: 'area',
  wall_area_gross: 'area',
  perimeter: 'length',
  skirting: 'length',
  volume: 'volume',
  doors: 'count',
  windows: 'count',
};

export const KIND_OF_UNIT: Partial<Record<Unit, MeasureKind>> = {
  m2: 'area',
  ft2: 'area',
  m: 'length',
  ft: 'length',
  m3: 'volume',
  ft3: 'volume',
  each: 'count',
};

/** How a unit is shown: m², ft², m³… */
export const UNIT_LABELS: Record<Unit, string> = {
  m2: 'm²',
  ft2: 'ft²',
  m: 'm',
  ft: 'ft',
  m3: 'm³',
  ft3: 'ft³',
  each: 'each',
  hour: 'hour',
  fixed: 'fixed',
};

export interface PriceListItem {
  id: string;
  workspaceId: string;
  name: string;
  unit: Unit;
  /** In the workspace currency's smallest unit. */
  unitPrice: number;
  taxes: string[];
  measure: Measure | null;
  /** Thousandths of a percent (10 % is 10000). */
  waste: number;
  /** Hundredths (2 coats is 200). */
  coats: number;
  /** Hundredths of the item's unit one pack covers; null when sold by the unit. */
  pack: number | null;
  /** What the customer reads after the item's name on a quote line ("Washable matt, two coats"); null for nothing. */
  customerDescription: string | null;
  createdAt: string;
  updatedAt: string;
}

export function itemOf(row: Selectable<PriceListItemTable>): PriceListItem {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    unit: row.unit as Unit,
    unitPrice: Number(row.unit_price),
    taxes: JSON.parse(row.taxes) as string[],
    measure: (row.measure ?? null) as Measure | null,
    waste: Number(row.waste),
    coats: Number(row.coats),
    pack: row.pack === null ? null : Number(row.pack),
    customerDescription: row.customer_description ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The price list is the owners' to change; members read it (docs/security.md). */
export function requireOwnerRole(role: Role): void {
  if (role !== 'owner')
    throw new AppError('owner_only', 'Only an owner of the workspace can change the price list; ask an owner');
}

const invalid = (field: string, message: string) =>
  new AppError('invalid_fields', message, [{ field, code: 'invalid', message }]);

export function checkItemName(value: string): string {
  const name = checkText(value, 'name', 'The name').trim();
  if (name === '')
    throw new AppError('invalid_fields', 'The name is empty', [
      { field: 'name', code: 'required', message: 'Give the item a name' },
    ]);
  if (name.length > 200)
    throw new AppError('invalid_fields', 'The name is longer than 200 characters', [
      { field: 'name', code: 'too_long', message: 'At most 200 characters', max: 200 },
    ]);
  return name;
}

export function checkUnit(value: string, field = 'unit'): Unit {
  const unit = value.trim().toLowerCase().replace('²', '2').replace('³', '3');
  if (!(UNITS as readonly string[]).includes(unit)) throw invalid(field, `The unit is one of ${UNITS.join(', ')}`);
  return unit as Unit;
}

export function checkMeasure(value: string): Measure | null {
  const measure = value.trim().toLowerCase();
  if (measure === '' || measure === 'none') return null;
  if (!(MEASURES as readonly string[]).includes(measure))
    throw invalid('measure', `The measure is one of ${MEASURES.join(', ')}, or empty`);
  return measure as Measure;
}

/** Waste in percent, 0 to 1000 with up to three decimals, as thousandths of a percent. */
export function checkWaste(value: string): number {
  return parseRate(value.trim() === '' ? '0' : value, 'waste', 1000);
}

/** A positive decimal with up to two decimals, as hundredths (coats, pack coverage). */
export function checkHundredths(value: string, field: string, label: string): number {
  const units = parseDecimal(value, 2, false);
  if (units === undefined || units <= 0n || units > 100_000_000n)
    throw invalid(field, `${label} is a number above 0 with at most 2 decimals`);
  return Number(units);
}

/** Tax names as the workspace spells them; a name it does not have is refused. */
export function checkTaxNames(names: readonly string[], workspaceTaxes: readonly WorkspaceTax[]): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    const tax = workspaceTaxes.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (!tax) {
      throw invalid(
        'taxes',
        `"${name.slice(0, 40)}" is not one of this workspace's taxes (${
          workspaceTaxes.map((t) => t.name).join(', ') || 'none; add them in Settings'
        })`,
      );
    }
    if (!out.includes(tax.name)) out.push(tax.name);
  }
  return out;
}

/**
 * The most a customer description holds: with the name (at most 200) and a line break it still fits a quote line's
 * description (at most 1000), so a line priced from the item can be saved as it is.
 */
export const MAX_CUSTOMER_DESCRIPTION = 700;

/** An item's customer description: up to MAX_CUSTOMER_DESCRIPTION characters, several lines allowed; empty for none. */
export function checkCustomerDescription(value: string): string | null {
  const text = checkText(value, 'customerDescription', 'The customer description', { multiline: true }).trim();
  if (text.length > MAX_CUSTOMER_DESCRIPTION)
    throw new AppError(
      'invalid_fields',
      `The customer description is longer than ${MAX_CUSTOMER_DESCRIPTION} characters`,
      [
        {
          field: 'customerDescription',
          code: 'too_long',
          message: `At most ${MAX_CUSTOMER_DESCRIPTION} characters`,
          max: MAX_CUSTOMER_DESCRIPTION,
        },
      ],
    );
  return text === '' ? null : text;
}

/** A measured item must be counted in a unit its figure converts to: an area in m² or ft², doors in `each`. */
export function checkMeasureFitsUnit(measure: Measure | null, unit: Unit): void {
  if (measure === null) return;
  const kind = KIND_OF_MEASURE[measure];
  if (KIND_OF_UNIT[unit] !== kind) {
    const units = Object.entries(KIND_OF_UNIT)
      .filter(([, k]) => k === kind)
      .map(([u]) => u)
      .join(' or ');
    throw new AppError('invalid_fields', `An item measured by ${measure} is counted in ${units}, not ${unit}`, [
      { field: 'unit', code: 'invalid', message: `Measured by ${measure}: choose ${units}` },
    ]);
  }
}

/** Hundredths as the decimal a person types: 250 is "2.5", 200 is "2". */
export function hundredthsText(value: number): string {
  return formatDecimal(value, 2).replace(/\.?0+$/, '');
}
