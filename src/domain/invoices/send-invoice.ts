import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { hashLinkToken, mintLinkToken } from '../link-token.js';
import { formatMoney, type TaxRate } from '../money.js';
import { queueInvoiceEmail } from '../notifications/invoice-emails.js';
import { addDays, todayIn } from '../quotes/quote-view.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { freezeInvoiceDocument } from './invoice-documents.js';
import { nextInvoiceNumber } from './invoice-number.js';
import { settleInvoice } from './invoice-rows.js';
import { invoiceLabel, invoiceStates, ISSUED_STATES, lockInvoice, notEditable, statusWords } from './invoice-states.js';
import { invoiceTotals, loadLines, reloadInvoice, type InvoiceView } from './invoice-view.js';

export interface SentInvoice {
  invoice: InvoiceView;
  /** The customer's link token; put it only in the customer's link. */
  token: string;
  /** `{base}/i/{token}`: the page shows it to copy when email is off, the email's button links to it. */
  customerUrl: string;
  /** The PDF's document (docs/documents.md): rendered by the document job, attached to the email. */
  documentId: string;
}

/**
 * Sends a draft invoice or credit note: a person's sign-off on its page (the CLI never sends). In one transaction,
 * under the invoice's lock (a credit note's after its invoice's): the next number of its series (`INV-…` with the
 * workspace's prefix, or `CN-…`), so numbers follow send order with no gap and no repeat; the issue date (today in the
 * workspace's time zone) and the due date (issue + its payment terms); the locale and the payment instructions as
 * Settings say now, frozen; the customer's link (128 random bits, kept hashed and sealed); the PDF frozen and queued
 * for the document job; the audit record; with `email` (and email on, and a customer address), the customer's email
 * with the PDF and the link. A credit note sent reduces its invoice's balance at once. Refused: anything but a draft
 * (`invoice_not_editable`), no lines, a total of zero or below (`negative_total`), a credit note of an invoice
 * voided meanwhile (`invoice_not_creditable`).
 */
export async function sendInvoice({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  invoiceId: string;
  /** The person who pressed Send (the invoice's sender, told when it is paid). */
  by: { userId: string | null };
  /** From the invoice's page: with email on and a customer address, the email is queued in this same transaction. */
  email?: { replyTo: string; senderName: string };
}>): Promise<SentInvoice> {
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    invoiceStates.requireMove('send', row.status, (status) => notEditable(row, status, 'send'));
    const credit = row.kind === 'credit_note';
    const lines = await loadLines(trx, row.id);
    if (lines.length === 0)
      throw new AppError('invalid_fields', `${invoiceLabel(row)} needs at least one line before it is sent`, [
        { field: 'lines', code: 'required', message: 'Add a line first' },
      ]);
    const totals = invoiceTotals(lines, JSON.parse(row.tax_rates) as TaxRate[]);
    if (totals.total <= 0) {
      const shown = formatMoney(totals.total, row.currency, settings.locale);
      throw new AppError(
        'negative_total',
        credit
          ? `The credit is ${shown}: a credit note gives the customer money back. Credit the lines charged, then ` +
              `send it`
          : `The total is ${shown}: an invoice asks the customer to pay. Add what it charges for, then send it; ` +
              `money owed back is a credit note`,
      );
    }
    const credited = row.credit_of
      ? await trx.selectFrom('invoices').selectAll().where('id', '=', row.credit_of).executeTakeFirstOrThrow()
      : undefined;
    if (credited && !(ISSUED_STATES as readonly string[]).includes(credited.status))
      throw new AppError(
        'invoice_not_creditable',
        `${invoiceLabel(credited)} is ${statusWords(credited.status)}: it can no longer be credited; void this ` +
          `credit note`,
        [{ field: 'send', code: 'invalid', message: `${invoiceLabel(credited)} is ${statusWords(credited.status)}` }],
      );
    const at = nowIso(ctx);
    // The move itself, on its condition: of two sends of one draft, the second changes nothing and takes no number.
    const claimed = await trx
      .updateTable('invoices')
      .set({ status: invoiceStates.moves.send.to })
      .where('id', '=', row.id)
      .where('status', 'in', invoiceStates.moveFrom('send'))
      .executeTakeFirst();
    changedExactly(claimed, 1, () => notEditable(row, 'sent', 'send'));
    const issueDate = todayIn(settings.timeZone, ctx.clock.now());
    const number = await nextInvoiceNumber(
      trx,
      ctx.workspaceId,
      credit ? 'credit_note' : 'invoice',
      settings.invoicePrefix,
    );
    const token = mintLinkToken();
    await trx
      .updateTable('invoices')
      .set({
        number,
        issue_date: issueDate,
        due_date: credit ? null : addDays(issueDate, Number(row.payment_terms_days)),
        locale: settings.locale,
        payment_instructions: credit ? null : settings.paymentInstructions,
        subtotal: totals.subtotal,
        total: totals.total,
        balance: credit ? 0 : totals.total,
        token_hash: hashLinkToken(token),
        token_enc: ctx.secrets.seal(token),
        sent_at: at,
        sent_by_user_id: input.by.userId,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .execute();
    // A credit note counts against its invoice's balance from its send.
    if (credited) await settleInvoice(ctx, trx, credited, 'settle');
    await recordAudit(trx, ctx, {
      action: 'invoice.sent',
      workspaceId: ctx.workspaceId,
      targetIds: [row.id, ...[row.credit_of, row.lead_id].filter((t): t is string => t !== null)],
      details: { total: totals.total, ...(credit ? { creditNote: true } : {}) },
    });
    const invoice = await reloadInvoice(ctx, trx, row.id);
    const documentId = await freezeInvoiceDocument(trx, ctx, invoice);
    if (input.email && invoice.customer.email)
      await queueInvoiceEmail(trx, ctx, {
        to: invoice.customer.email,
        workspaceId: ctx.workspaceId,
        payload: {
          event: 'sent',
          invoiceId: invoice.id,
          documentId,
          replyTo: input.email.replyTo,
          senderName: input.email.senderName,
        },
      });
    return { invoice, token, customerUrl: invoice.customerUrl!, documentId };
  });
}
