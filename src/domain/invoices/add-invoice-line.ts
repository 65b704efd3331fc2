import type { WorkspaceVerbArgs } from '../context.js';
import type { TaxRate } from '../money.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { checkInvoiceLine, type InvoiceLineFields } from './invoice-line-fields.js';
import { insertLines, storeDraftTotals } from './invoice-rows.js';
import { invoiceStates, lockInvoice, notEditable } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

/**
 * Adds a line to a draft (a negative price is a discount, taxed the same way); answers the invoice. Without taxes
 * given, the line carries the invoice's taxes that Settings have on by default. A sent invoice is never changed
 * (`invoice_not_editable`).
 */
export async function addInvoiceLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; line: InvoiceLineFields }>): Promise<InvoiceView> {
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    invoiceStates.requireMove('edit', row.status, (status) => notEditable(row, status));
    const rates = JSON.parse(row.tax_rates) as TaxRate[];
    const line = checkInvoiceLine(input.line, row.currency, rates);
    const taxes =
      line.taxes ??
      settings.taxes.filter((t) => t.onByDefault && rates.some((r) => r.name === t.name)).map((t) => t.name);
    await insertLines(trx, row.id, [{ ...line, taxes }]);
    await storeDraftTotals(ctx, trx, row);
    return reloadInvoice(ctx, trx, row.id);
  });
}
