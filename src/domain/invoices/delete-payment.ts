import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { settleInvoice } from './invoice-rows.js';
import { invoiceLabel, lockInvoice } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

/**
 * Deletes a payment recorded by mistake (docs/invoices.md, "Payments"), audited with its amount; under the invoice's
 * lock, its paid amount, balance and status are computed again (paid → partly paid → sent or viewed).
 */
export async function deletePayment({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; paymentId: string }>): Promise<InvoiceView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    const payment = await trx
      .selectFrom('invoice_payments')
      .select(['id', 'amount'])
      .where('id', '=', input.paymentId)
      .where('invoice_id', '=', row.id)
      .executeTakeFirst();
    const notFound = () => new AppError('payment_not_found', `No payment ${input.paymentId} on ${invoiceLabel(row)}`);
    if (!payment) throw notFound();
    const deleted = await trx
      .deleteFrom('invoice_payments')
      .where('id', '=', payment.id)
      .where('invoice_id', '=', row.id)
      .executeTakeFirst();
    changedExactly(deleted, 1, notFound);
    const settled = await settleInvoice(ctx, trx, row, 'settle');
    await recordAudit(trx, ctx, {
      action: 'invoice.payment_deleted',
      workspaceId: ctx.workspaceId,
      targetIds: [row.id, payment.id],
      details: { amount: Number(payment.amount), balance: Number(settled.balance) },
    });
    return reloadInvoice(ctx, trx, row.id);
  });
}
