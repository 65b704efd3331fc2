import { unguardText, type CsvCell } from '../csv-cells.js';
import { amountText, rateText } from '../money.js';
import { hundredthsText, type PriceListItem } from './price-list-item.js';

/** The price list's CSV columns, in order (docs/quotes.md, "The price list"). */
export const PRICE_LIST_HEADERS = [
  'name',
  'unit',
  'price',
  'taxes',
  'measure',
  'waste',
  'coats',
  'pack',
  'description',
] as const;

/**
 * One item as its CSV cells: text guarded by the one CSV cell rule (src/domain/csv-cells.ts), numbers as number
 * cells written from their exact decimal text (never through a float), taxes joined by commas.
 */
export function itemCells(item: PriceListItem, currency: string): CsvCell[] {
  return [
    item.name,
    item.unit,
    { csvNumber: amountText(item.unitPrice, currency) },
    item.taxes.join(', '),
    item.measure ?? '',
    { csvNumber: rateText(item.waste) },
    { csvNumber: hundredthsText(item.coats) },
    item.pack === null ? null : { csvNumber: hundredthsText(item.pack) },
    item.customerDescription,
  ];
}

/**
 * What the cell rule's guard added to a text cell (`unguardText`), taken off again on import, so an exported list
 * imports as it was: one `'` before =, +, -, @, tab or CR (and the `'`s a person typed before them) at the start,
 * and after a `;` or `,`.
 */
export function unguardCell(value: string): string {
  return unguardText(value);
}
