import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import type { Role } from '../roles.js';
import { checkItemFields, itemRow, type ItemFields } from './item-fields.js';
import { itemOf, requireOwnerRole, type PriceListItem } from './price-list-item.js';

/** Replaces an item's fields (owners). Quotes already priced from it keep their lines as they are. */
export async function updatePriceListItem({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; role: Role; itemId: string; item: ItemFields }>): Promise<PriceListItem> {
  requireOwnerRole(input.role);
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
  const values = checkItemFields(input.item, settings);
  return ctx.store.writer.write(async (trx) => {
    const changes = { ...itemRow(values), updated_at: nowIso(ctx) };
    const updated = await trx
      .updateTable('price_list_items')
      .set(changes)
      .where('id', '=', input.itemId)
      .where('workspace_id', '=', input.workspaceId)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new AppError('price_list_item_not_found', `No price-list item has the id ${input.itemId}`);
    await recordAudit(trx, ctx, {
      action: 'price_list.item_changed',
      workspaceId: input.workspaceId,
      targetIds: [input.itemId],
      details: { unitPrice: values.unitPrice },
    });
    return itemOf(updated);
  });
}
