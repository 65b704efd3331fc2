import { defuseFormulas } from '../leads/export-leads.js';
import { amountText, rateText } from '../quotes/money.js';
import { hundredthsText, type PriceListItem } from './price-list-item.js';

/** The price list's CSV columns, in order (docs/quotes.md, "The price list"). */
export const PRICE_LIST_HEADERS = ['name', 'unit', 'price', 'taxes', 'measure', 'waste', 'coats', 'pack'] as const;

/** One item as its CSV cells: decimals as a person types them, taxes joined by commas. */
export function itemCells(item: PriceListItem, currency: string): string[] {
  return [
    item.name,
    item.unit,
    amountText(item.unitPrice, currency),
    item.taxes.join(', '),
    item.measure ?? '',
    rateText(item.waste),
    hundredthsText(item.coats),
    item.pack === null ? '' : hundredthsText(item.pack),
  ];
}

/** A cell as the export writes it: a formula-looking cell gets its leading `'` (the leads export's rule, §12). */
export const guardCell = defuseFormulas;

/**
 * What `guardCell` added, taken off again on import, so an exported list imports as it was: a `'` before =, +, -, @,
 * tab or CR at the start, and after a `;` or `,`. A negative price ("'-5.00") reads as -5.00.
 */
export function unguardCell(value: string): string {
  const inner = value.replace(/([;,])(\s*)'([=+\-@])/g, '$1$2$3');
  return /^'[=+\-@\t\r]/.test(inner) ? inner.slice(1) : inner;
}
