import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { nowIso } from '../context.js';
import { checkQuoteDetails } from '../quotes/quote-details.js';
import { checkPaymentTerms } from '../settings/invoice-settings.js';
import { storeDraftTotals } from './invoice-rows.js';
import { invoiceStates, lockInvoice, notEditable } from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';
import type { FieldError } from '../errors.js';

/** What a draft's details a save may change; each is optional, and an empty text clears it. */
export interface InvoiceDetails {
  title?: string;
  note?: string;
  customerName?: string;
  customerEmail?: string;
  customerPhone?: string;
  customerAddress?: string;
  /** The sender's words in the email Send queues. */
  sendMessage?: string;
  /** Days from the send to the due date, 0 to 365. */
  paymentTermsDays?: string | number;
}

/**
 * Changes a draft's details (docs/invoices.md, "Drafts"), by the quote's rules for the same fields (title, note, the
 * customer's name, email, phone, address) and the payment terms' (0 to 365 days); every refusal at once, each next to
 * its field, and nothing changes.
 */
export async function updateInvoice({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; details: InvoiceDetails }>): Promise<InvoiceView> {
  const { paymentTermsDays, ...details } = input.details;
  const { set, errors } = checkQuoteDetails(details, '0000-00-00');
  const fieldErrors: FieldError[] = [...errors];
  let terms: number | undefined;
  if (paymentTermsDays !== undefined) {
    try {
      terms = checkPaymentTerms(paymentTermsDays, 'paymentTermsDays');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      fieldErrors.push(...(error.fieldErrors ?? []));
    }
  }
  if (fieldErrors.length > 0)
    throw new AppError('invalid_fields', fieldErrors.map((e) => e.message).join('; '), fieldErrors);
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    invoiceStates.requireMove('edit', row.status, (status) => notEditable(row, status, 'details'));
    const changes = {
      ...(set.title !== undefined ? { title: set.title } : {}),
      ...(set.note !== undefined ? { note: set.note } : {}),
      ...(set.customer_name !== undefined ? { customer_name: set.customer_name } : {}),
      ...(set.customer_email !== undefined ? { customer_email: set.customer_email } : {}),
      ...(set.customer_phone !== undefined ? { customer_phone: set.customer_phone } : {}),
      ...(set.customer_address !== undefined ? { customer_address: set.customer_address } : {}),
      ...(set.send_message !== undefined ? { send_message: set.send_message } : {}),
      ...(terms !== undefined ? { payment_terms_days: terms } : {}),
    };
    if (Object.keys(changes).length > 0)
      await trx
        .updateTable('invoices')
        .set({ ...changes, updated_at: nowIso(ctx) })
        .where('id', '=', row.id)
        .where('status', 'in', invoiceStates.moveFrom('edit'))
        .execute();
    // The condition of the edit move: a draft sent meanwhile makes the whole save refuse.
    await storeDraftTotals(ctx, trx, row);
    return reloadInvoice(ctx, trx, row.id);
  });
}
