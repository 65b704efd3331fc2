import { lineAmount, type TaxRate } from '../money.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { checkInvoiceLine, type InvoiceLineFields } from './invoice-line-fields.js';
import { storeDraftTotals } from './invoice-rows.js';
import { invoiceStates, lockInvoice, notEditable } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

/** Changes a draft's line (every field given again; taxes not given stay as they were); answers the invoice. */
export async function updateInvoiceLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; lineId: string; line: InvoiceLineFields }>): Promise<InvoiceView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    invoiceStates.requireMove('edit', row.status, (status) => notEditable(row, status));
    const line = checkInvoiceLine(input.line, row.currency, JSON.parse(row.tax_rates) as TaxRate[]);
    const changed = await trx
      .updateTable('invoice_lines')
      .set({
        description: line.description,
        quantity: line.quantity,
        unit: line.unit,
        unit_price: line.unitPrice,
        amount: lineAmount(line.quantity, line.unitPrice),
        ...(line.taxes !== undefined ? { taxes: JSON.stringify(line.taxes) } : {}),
      })
      .where('id', '=', input.lineId)
      .where('invoice_id', '=', row.id)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      throw new AppError('invoice_line_not_found', `No line ${input.lineId} on ${row.number ?? 'this invoice'}`);
    await storeDraftTotals(ctx, trx, row);
    return reloadInvoice(ctx, trx, row.id);
  });
}
