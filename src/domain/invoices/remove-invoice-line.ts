import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { storeDraftTotals } from './invoice-rows.js';
import { invoiceStates, lockInvoice, notEditable } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

/** Removes a draft's line; answers the invoice. */
export async function removeInvoiceLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; lineId: string }>): Promise<InvoiceView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    invoiceStates.requireMove('edit', row.status, (status) => notEditable(row, status));
    const removed = await trx
      .deleteFrom('invoice_lines')
      .where('id', '=', input.lineId)
      .where('invoice_id', '=', row.id)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1)
      throw new AppError('invoice_line_not_found', `No line ${input.lineId} on ${row.number ?? 'this invoice'}`);
    await storeDraftTotals(ctx, trx, row);
    return reloadInvoice(ctx, trx, row.id);
  });
}
