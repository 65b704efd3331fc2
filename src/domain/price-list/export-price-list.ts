import type { VerbArgs } from '../context.js';
import { csvText } from '../csv-cells.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { listPriceList } from './list-price-list.js';
import { itemCells, PRICE_LIST_HEADERS } from './price-list-csv.js';

/**
 * The price list as CSV (owners and members): a header row, one row an item, every cell quoted, text formula-guarded
 * and numbers written as numbers, UTF-8 with a BOM and CRLF like the leads export, so a spreadsheet opens it as it is.
 * `price-list import` reads it back.
 */
export async function exportPriceList({ ctx, input }: VerbArgs<{ workspaceId: string }>): Promise<string> {
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
  const items = await listPriceList({ ctx, input: { workspaceId: input.workspaceId } });
  return csvText([[...PRICE_LIST_HEADERS], ...items.map((item) => itemCells(item, settings.currency))]);
}
