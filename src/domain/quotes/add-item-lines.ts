import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { getPriceListItem } from '../price-list/list-price-list.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { measuredLines, sameRooms, type RoomPick } from './measured-lines.js';
import { placeInRooms, placeMaterials } from './materials-section.js';
import type { TaxRate } from '../money.js';
import { insertLines } from './quote-rows.js';
import { lockQuote, quoteStates } from './quote-states.js';
import { findQuoteRow, requireDraft, storeTotals, type QuoteView } from './quote-view.js';
import { requireEditable } from './save-quote.js';

/**
 * Adds price-list items to a draft, after its lines, as `createQuote` prices them: measured items once per chosen room
 * of the given scans (a pack item once over them all, in the Materials section), others once with quantity 1. Prices
 * are the items' as they are now; the quote keeps its own currency and taxes (an item's tax the quote does not have
 * is left off). Answers the quote with its new totals.
 */
export async function addItemLines({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  quoteId: string;
  itemIds: string[];
  scanIds?: string[];
  rooms?: number[];
  /** Instead of `scanIds` and `rooms`: rooms picked per scan (the builder's Add lines). */
  picks?: RoomPick[];
}>): Promise<QuoteView> {
  const quote = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  requireDraft(quote);
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: quote.workspace_id } });
  const items = await Promise.all(input.itemIds.map((itemId) => getPriceListItem({ ctx, input: { itemId } })));
  const lines = await measuredLines(ctx, {
    workspaceId: quote.workspace_id,
    leadId: quote.lead_id,
    picks: input.picks ?? sameRooms(input.scanIds ?? [], input.rooms ?? []),
    items,
    taxNames: (JSON.parse(quote.tax_rates) as TaxRate[]).map((t) => t.name),
    locale: settings.locale,
  });
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: quote.id });
    requireEditable(row);
    await insertLines(trx, row.id, await placeMaterials(trx, row.id, await placeInRooms(trx, row.id, lines)));
    return storeTotals(ctx, trx, row.id, nowIso(ctx), quoteStates.moveFrom('edit'));
  });
}
