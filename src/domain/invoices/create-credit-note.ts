import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { TaxRate } from '../money.js';
import { checkText } from '../text-input.js';
import { invoiceLabel, invoiceStates, lockInvoice, statusWords } from './invoice-states.js';
import { loadLines, type InvoiceView } from './invoice-view.js';
import { insertDraft } from './new-draft.js';

export const CREDIT_REASON_MAX = 1000;

/**
 * A draft credit note for an issued invoice with payments (docs/invoices.md, "Void and credit notes"): the lines
 * given (`lineIds`), or every line not credited yet, copied as they are, with the reason. A person sends it; sent, it
 * reduces the invoice's balance, and a credit beyond what is unpaid is owed back to the customer. Refused
 * (`invoice_not_creditable`): a draft, a void invoice, an invoice without payments (void it instead), a credit note,
 * a line another credit note already credits.
 */
export async function createCreditNote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; lineIds?: string[]; reason: string }>): Promise<InvoiceView> {
  const reason = checkText(input.reason, 'reason', 'The reason', { multiline: true }).trim();
  if (reason === '')
    throw new AppError('invalid_fields', 'Say why the invoice is credited', [
      { field: 'reason', code: 'required', message: 'Say why (printed on the credit note)' },
    ]);
  if ([...reason].length > CREDIT_REASON_MAX)
    throw new AppError('invalid_fields', `The reason is longer than ${CREDIT_REASON_MAX} characters`, [
      { field: 'reason', code: 'too_long', message: `At most ${CREDIT_REASON_MAX} characters`, max: CREDIT_REASON_MAX },
    ]);
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    const label = invoiceLabel(row);
    const refuse = (message: string, field = 'lines') =>
      new AppError('invoice_not_creditable', message, [{ field, code: 'invalid', message }]);
    if (row.kind === 'credit_note') throw refuse(`${label} is a credit note: credit the invoice it credits instead`);
    invoiceStates.requireMove('credit', row.status, (status) =>
      refuse(
        status === 'draft'
          ? `${label} is a draft: change it instead (a credit note corrects a sent invoice)`
          : `${label} is ${statusWords(status)}: it cannot be credited`,
      ),
    );
    if (Number(row.paid) <= 0)
      throw refuse(`${label} has no payments: void it instead (a credit note corrects an invoice with payments)`);
    const lines = await loadLines(trx, row.id);
    const credited = await trx
      .selectFrom('invoice_lines')
      .innerJoin('invoices', 'invoices.id', 'invoice_lines.invoice_id')
      .select(['invoice_lines.credits_line_id', 'invoices.number'])
      .where('invoices.credit_of', '=', row.id)
      .where('invoices.status', '!=', 'void')
      .where('invoice_lines.credits_line_id', 'is not', null)
      .execute();
    const creditedBy = new Map(credited.map((c) => [c.credits_line_id!, c.number ?? 'a draft credit note']));
    let chosen = lines.filter((l) => !creditedBy.has(l.id));
    if (input.lineIds !== undefined && input.lineIds.length > 0) {
      const ids = [...new Set(input.lineIds.map((id) => id.trim()))];
      const missing = ids.find((id) => !lines.some((l) => l.id === id));
      if (missing) throw new AppError('invoice_line_not_found', `No line ${missing} on ${label}`);
      const taken = ids.find((id) => creditedBy.has(id));
      if (taken) throw refuse(`Line ${taken} of ${label} is already credited by ${creditedBy.get(taken)}`);
      chosen = lines.filter((l) => ids.includes(l.id));
    }
    if (chosen.length === 0) throw refuse(`Every line of ${label} is already credited`);
    return insertDraft(ctx, trx, {
      kind: 'credit_note',
      quoteId: row.quote_id,
      quoteChainId: row.quote_chain_id,
      leadId: row.lead_id,
      creditOf: row.id,
      customer: {
        name: row.customer_name,
        email: row.customer_email,
        phone: row.customer_phone,
        address: row.customer_address,
      },
      title: null,
      currency: row.currency,
      taxRates: JSON.parse(row.tax_rates) as TaxRate[],
      creditReason: reason,
      paymentTermsDays: Number(row.payment_terms_days),
      lines: chosen.map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unit: l.unit,
        unitPrice: l.unitPrice,
        taxes: l.taxes,
        creditsLineId: l.id,
      })),
    });
  });
}
