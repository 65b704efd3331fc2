import type { DomainContext, VerbArgs, WorkspaceVerbArgs } from '../context.js';
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

/** One item of the context's workspace (a quote priced from it, a page editing it); another's is not found. */
export async function getPriceListItem({ ctx, input }: WorkspaceVerbArgs<{ itemId: string }>): Promise<PriceListItem> {
  const row = await ctx.store.db
    .selectFrom('price_list_items')
    .selectAll()
    .where('id', '=', input.itemId)
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('price_list_item_not_found', `No price-list item has the id ${input.itemId}`);
  return itemOf(row);
}

/** The workspace of a price-list item, for the operator's CLI, which names any item and acts in its workspace. */
export async function workspaceOfPriceListItem(ctx: DomainContext, itemId: string): Promise<string> {
  const row = await ctx.store.db
    .selectFrom('price_list_items')
    .select('workspace_id')
    .where('id', '=', itemId)
    .executeTakeFirst();
  if (!row) throw new AppError('price_list_item_not_found', `No price-list item has the id ${itemId}`);
  return row.workspace_id;
}
