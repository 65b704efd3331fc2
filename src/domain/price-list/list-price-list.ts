import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { itemOf, type PriceListItem } from './price-list-item.js';

/** A workspace's price list by name (owners and members). */
export async function listPriceList({ ctx, input }: VerbArgs<{ workspaceId: string }>): Promise<PriceListItem[]> {
  const rows = await ctx.store.db
    .selectFrom('price_list_items')
    .selectAll()
    .where('workspace_id', '=', input.workspaceId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(itemOf);
}

/** One item of a workspace (a quote priced from it, a page editing it). */
export async function getPriceListItem({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; itemId: string }>): Promise<PriceListItem> {
  let query = ctx.store.db.selectFrom('price_list_items').selectAll().where('id', '=', input.itemId);
  if (input.workspaceId !== undefined) query = query.where('workspace_id', '=', input.workspaceId);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('price_list_item_not_found', `No price-list item has the id ${input.itemId}`);
  return itemOf(row);
}
