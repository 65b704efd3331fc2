import type { Selectable, Transaction } from 'kysely';
import type { InvoiceTable, Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceContext, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { formatMoney } from '../money.js';
import { queueInvoiceEmail } from '../notifications/invoice-emails.js';
import { todayIn } from '../quotes/quote-view.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { actorUserId } from './new-draft.js';
import { checkPaymentFields, type PaymentFields } from './payment-fields.js';
import { settleInvoice } from './invoice-rows.js';
import { invoiceLabel, invoiceStates, lockInvoice, notPayable } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

/**
 * Records a payment by hand (docs/invoices.md, "Payments"; members and owners): its date, amount, method and
 * reference, on a sent, viewed or partly paid invoice, at most its balance (`payment_over_balance`, said beside the
 * amount). Under the invoice's lock, in one transaction: the payment, the invoice's paid amount, balance and status
 * (partly paid, or paid in full), the audit record, and with email on: the customer's receipt (unless `receipt` is
 * false; a notice with the link, never a document) and, paid in full, the sender's notice.
 */
export async function recordPayment({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; payment: PaymentFields; receipt?: boolean }>): Promise<{
  invoice: InvoiceView;
  paymentId: string;
  paidInFull: boolean;
}> {
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    if (row.kind === 'credit_note') throw notPayable(row, row.status);
    invoiceStates.requireMove('pay', row.status, (status) => notPayable(row, status));
    const payment = checkPaymentFields(input.payment, row.currency, todayIn(settings.timeZone, ctx.clock.now()));
    const balance = Number(row.balance);
    if (payment.amount > balance) {
      const money = (minor: number) => formatMoney(minor, row.currency, row.locale ?? settings.locale);
      const message = `At most ${money(balance)}, the balance of ${invoiceLabel(row)}`;
      throw new AppError(
        'payment_over_balance',
        `${money(payment.amount)} is more than the balance of ${invoiceLabel(row)} (${money(balance)}): record at ` +
          `most the balance`,
        [{ field: 'amount', code: 'invalid', message }],
      );
    }
    const paymentId = newId('pay');
    await trx
      .insertInto('invoice_payments')
      .values({
        id: paymentId,
        invoice_id: row.id,
        workspace_id: ctx.workspaceId,
        paid_on: payment.date,
        amount: payment.amount,
        method: payment.method,
        reference: payment.reference,
        recorded_by_user_id: actorUserId(ctx),
        created_at: nowIso(ctx),
      })
      .execute();
    const settled = await settleInvoice(ctx, trx, row, 'pay');
    const paidInFull = settled.status === 'paid';
    await recordAudit(trx, ctx, {
      action: 'invoice.payment_recorded',
      workspaceId: ctx.workspaceId,
      targetIds: [row.id, paymentId],
      details: { amount: payment.amount, balance: Number(settled.balance), ...(paidInFull ? { paidInFull } : {}) },
    });
    await queuePaymentEmails(ctx, trx, settled, paymentId, { receipt: input.receipt !== false, paidInFull });
    return { invoice: await reloadInvoice(ctx, trx, row.id), paymentId, paidInFull };
  });
}

/** The customer's receipt and, paid in full, the sender's notice (while the sender is a member with an address). */
async function queuePaymentEmails(
  ctx: WorkspaceContext,
  trx: Transaction<Schema>,
  row: Selectable<InvoiceTable>,
  paymentId: string,
  options: { receipt: boolean; paidInFull: boolean },
): Promise<void> {
  if (!ctx.mail) return;
  const sender = row.sent_by_user_id
    ? await trx
        .selectFrom('users')
        .innerJoin('memberships', 'memberships.user_id', 'users.id')
        .select(['users.id', 'users.email', 'users.display_name'])
        .where('users.id', '=', row.sent_by_user_id)
        .where('memberships.workspace_id', '=', ctx.workspaceId)
        .executeTakeFirst()
    : undefined;
  if (options.receipt && row.customer_email)
    await queueInvoiceEmail(trx, ctx, {
      to: row.customer_email,
      workspaceId: ctx.workspaceId,
      payload: {
        event: 'receipt',
        invoiceId: row.id,
        paymentId,
        ...(sender ? { replyTo: sender.email, senderName: sender.display_name ?? sender.email } : {}),
      },
    });
  if (options.paidInFull && sender)
    await queueInvoiceEmail(trx, ctx, {
      to: sender.email,
      workspaceId: ctx.workspaceId,
      userId: sender.id,
      payload: { event: 'paid', invoiceId: row.id, paymentId },
    });
}
