import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';
import { settleInvoice } from './invoice-rows.js';
import {
  invoiceLabel,
  invoiceStates,
  ISSUED_STATES,
  lockInvoice,
  lockQuoteChain,
  statusWords,
} from './invoice-states.js';
import { reloadInvoice, type InvoiceView } from './invoice-view.js';

export const VOID_REASON_MAX = 500;

/**
 * Voids a draft, or a sent invoice or credit note without payments (docs/invoices.md, "Void and credit notes"), with a
 * reason (shown on its link and in the books). It keeps its number: the series never goes back. Refused: an invoice
 * with payments or credit notes (`invoice_has_payments`: it is corrected by a credit note), a deposit the rest
 * subtracts (`already_invoiced`: void the rest first). Under the quote chain's lock, then the invoice's. A credit note
 * voided no longer reduces its invoice's balance.
 */
export async function voidInvoice({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; reason: string }>): Promise<InvoiceView> {
  const reason = checkText(input.reason, 'reason', 'The reason', { multiline: true }).trim();
  if (reason === '')
    throw new AppError('invalid_fields', 'Say why the invoice is void', [
      { field: 'reason', code: 'required', message: 'Say why it is void (shown on its link and in the books)' },
    ]);
  if ([...reason].length > VOID_REASON_MAX)
    throw new AppError('invalid_fields', `The reason is longer than ${VOID_REASON_MAX} characters`, [
      { field: 'reason', code: 'too_long', message: `At most ${VOID_REASON_MAX} characters`, max: VOID_REASON_MAX },
    ]);
  return ctx.store.writer.write(async (trx) => {
    const head = await trx
      .selectFrom('invoices')
      .select('quote_chain_id')
      .where('id', '=', input.invoiceId)
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (head?.quote_chain_id) await lockQuoteChain(ctx, trx, head.quote_chain_id);
    const row = await lockInvoice(ctx, trx, input.invoiceId);
    const label = invoiceLabel(row);
    const refuse = (code: 'invoice_has_payments' | 'already_invoiced' | 'invoice_not_editable', message: string) =>
      new AppError(code, message, [{ field: 'reason', code: 'invalid', message }]);
    invoiceStates.requireMove('void', row.status, (status) =>
      status === 'partly_paid' || status === 'paid'
        ? refuse(
            'invoice_has_payments',
            `${label} has payments: it cannot be voided; correct it with a credit note, or delete a payment ` +
              `recorded by mistake first`,
          )
        : refuse('invoice_not_editable', `${label} is ${statusWords(status)}`),
    );
    const payments = await trx
      .selectFrom('invoice_payments')
      .select('id')
      .where('invoice_id', '=', row.id)
      .limit(1)
      .execute();
    if (payments.length > 0)
      throw refuse('invoice_has_payments', `${label} has payments: correct it with a credit note instead`);
    const credits = await trx
      .selectFrom('invoices')
      .select(['number'])
      .where('credit_of', '=', row.id)
      .where('status', '!=', 'void')
      .execute();
    if (credits.length > 0)
      throw refuse(
        'invoice_has_payments',
        `${label} has credit notes (${credits.map((c) => c.number ?? 'a draft').join(', ')}): void them first`,
      );
    const rest = await trx
      .selectFrom('invoice_lines')
      .innerJoin('invoices', 'invoices.id', 'invoice_lines.invoice_id')
      .select('invoices.number')
      .where('invoice_lines.subtracts_invoice_id', '=', row.id)
      .where('invoices.status', '!=', 'void')
      .executeTakeFirst();
    if (rest)
      throw refuse(
        'already_invoiced',
        `${rest.number ?? 'A draft invoice of the rest'} subtracts ${label}: void that first`,
      );
    const at = nowIso(ctx);
    const voided = await trx
      .updateTable('invoices')
      .set({ status: invoiceStates.moves.void.to, voided_at: at, void_reason: reason, updated_at: at })
      .where('id', '=', row.id)
      .where('status', 'in', invoiceStates.moveFrom('void'))
      .executeTakeFirst();
    changedExactly(voided, 1, () => refuse('invoice_not_editable', `${label} changed meanwhile`));
    // A sent credit note counted against its invoice's balance: no longer.
    if (row.credit_of && (ISSUED_STATES as readonly string[]).includes(row.status)) {
      const credited = await trx
        .selectFrom('invoices')
        .selectAll()
        .where('id', '=', row.credit_of)
        .executeTakeFirstOrThrow();
      if ((ISSUED_STATES as readonly string[]).includes(credited.status))
        await settleInvoice(ctx, trx, credited, 'settle');
    }
    await recordAudit(trx, ctx, {
      action: 'invoice.voided',
      workspaceId: ctx.workspaceId,
      targetIds: [row.id, ...[row.credit_of, row.lead_id].filter((t): t is string => t !== null)],
      details: { total: Number(row.total), ...(row.number ? {} : { draft: true }) },
    });
    return reloadInvoice(ctx, trx, row.id);
  });
}
