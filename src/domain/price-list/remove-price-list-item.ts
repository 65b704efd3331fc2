import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { Role } from '../roles.js';
import { itemOf, requireOwnerRole, type PriceListItem } from './price-list-item.js';

/** Removes an item of the context's workspace (owners); quotes priced from it keep their lines. */
export async function removePriceListItem({
  ctx,
  input,
}: WorkspaceVerbArgs<{ role: Role; itemId: string }>): Promise<PriceListItem> {
  requireOwnerRole(input.role);
  return ctx.store.writer.write(async (trx) => {
    const row = await trx
      .selectFrom('price_list_items')
      .selectAll()
      .where('id', '=', input.itemId)
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (!row) throw new AppError('price_list_item_not_found', `No price-list item has the id ${input.itemId}`);
    await trx.deleteFrom('price_list_items').where('id', '=', row.id).execute();
    await recordAudit(trx, ctx, {
      action: 'price_list.item_removed',
      workspaceId: row.workspace_id,
      targetIds: [row.id],
    });
    return itemOf(row);
  });
}
