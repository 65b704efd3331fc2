import { formatQuantity } from './money.js';

/**
 * How a quote's line reads to the customer, the same on their page, in emails and on the PDF (docs/quotes.md, "What
 * the customer reads"). At the domain's root because the emails (notifications/) and the documents sit below quotes/.
 */

/**
 * A unit as the customer reads it beside a quantity: `m²`, `ft`, `h`; nothing for a count (`2`, not "2 each") or a
 * fixed price.
 */
const CUSTOMER_UNITS: Readonly<Record<string, string>> = {
  m2: 'm²',
  ft2: 'ft²',
  m: 'm',
  ft: 'ft',
  m3: 'm³',
  ft3: 'ft³',
  each: '',
  hour: 'h',
  fixed: '',
};

export function customerUnit(unit: string): string {
  return CUSTOMER_UNITS[unit] ?? unit;
}

/** A fixed price counted once is a fee: it reads as its amount alone, never "1 fixed × $75.00". */
export function isFee(line: { unit: string; quantity: number }): boolean {
  return line.unit === 'fixed' && line.quantity === 100;
}

/** A line's quantity with its unit, in the locale (`14.32 m²`, `8 h`, `2`); empty for a fee. */
export function quantityText(line: { unit: string; quantity: number }, locale: string): string {
  if (isFee(line)) return '';
  const unit = customerUnit(line.unit);
  return `${formatQuantity(line.quantity, locale)}${unit ? ` ${unit}` : ''}`;
}

/**
 * How a line's quantity was measured ("Kitchen: walls (net) 32.78 m² × 2 coats = 7 packs of 10 m²"), when the quote
 * shows it to the customer: only with the quote's "show how quantities were measured" on, and only for a line that
 * has one. Null otherwise.
 */
export function shownNote(
  source: { note?: string | null } | null | undefined,
  showMeasurements: boolean,
): string | null {
  return showMeasurements && source?.note ? source.note : null;
}

/** A description on one line (a plain-text email, a list): its lines joined by " — ", spaces collapsed. */
export function oneLineDescription(description: string): string {
  return description
    .split(/\r?\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' — ');
}
