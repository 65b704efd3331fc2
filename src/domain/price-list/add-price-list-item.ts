import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { newId } from '../ids.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import type { Role } from '../roles.js';
import { checkItemFields, itemRow, type ItemFields } from './item-fields.js';
import { itemOf, requireOwnerRole, type PriceListItem } from './price-list-item.js';

/** Adds an item to a workspace's price list (owners). */
export async function addPriceListItem({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; role: Role; item: ItemFields }>): Promise<PriceListItem> {
  requireOwnerRole(input.role);
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
  const values = checkItemFields(input.item, settings);
  const id = newId('pli');
  const at = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    const row = {
      id,
      workspace_id: input.workspaceId,
      customer_description: null,
      ...itemRow(values),
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('price_list_items').values(row).execute();
    await recordAudit(trx, ctx, {
      action: 'price_list.item_added',
      workspaceId: input.workspaceId,
      targetIds: [id],
      details: { unitPrice: values.unitPrice },
    });
    return itemOf(row);
  });
}
