import type { Selectable, Transaction } from 'kysely';
import type { InvoiceTable, Schema } from '../../storage/schema.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { countedLines, rateText, type TaxRate } from '../money.js';
import { findQuoteRow, loadQuoteView, type QuoteView } from '../quotes/quote-view.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { depositShare, depositSplit } from './deposit-split.js';
import { lockQuoteChain } from './invoice-states.js';
import type { NewInvoiceLine } from './invoice-rows.js';
import { loadLines, type InvoiceView } from './invoice-view.js';
import { insertDraft } from './new-draft.js';

/** What a person makes from an accepted quote: **Invoice** (no deposit), **Invoice deposit**, **Invoice the rest**. */
export type QuoteInvoiceKind = 'invoice' | 'deposit' | 'final';

const quoteLabel = (q: Pick<QuoteView, 'number' | 'revision'>) =>
  `${q.number ?? 'the quote'}${q.revision > 1 ? ` rev ${q.revision}` : ''}`;

const kindRefusal = (message: string) =>
  new AppError('invalid_fields', message, [{ field: 'kind', code: 'invalid', message }]);

/**
 * A draft invoice from an accepted quote (docs/invoices.md, "Kinds and the chain"), by the quote's id (any revision of
 * it; the accepted one is used):
 * - `invoice`, for a quote that asks no deposit: the lines the customer accepted (those that count: ticked options,
 *   chosen alternatives), as they are;
 * - `deposit`: one line per set of taxes among those lines, p × their net sum (`depositSplit`);
 * - `final` ("the rest"): those lines, less each earlier invoice of the quote as negative lines with the same taxes.
 * Under the quote's chain lock: one of each kind per quote that is not void (`already_invoiced`), the rest only once
 * the invoices before it are sent, no deposit after the rest. The customer, currency and taxes are the quote's.
 */
export async function createInvoiceFromQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; kind: QuoteInvoiceKind }>): Promise<InvoiceView> {
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  return ctx.store.writer.write(async (trx) => {
    const asked = await findQuoteRow(trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
    await lockQuoteChain(ctx, trx, asked.chain_id);
    const accepted = await trx
      .selectFrom('quotes')
      .selectAll()
      .where('chain_id', '=', asked.chain_id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    const label = `${asked.number ?? 'This quote'}${Number(asked.revision) > 1 ? ` rev ${asked.revision}` : ''}`;
    if (!accepted)
      throw new AppError('not_accepted', `${label} is not accepted: an invoice is made from an accepted quote`);
    const quote = await loadQuoteView(ctx, trx, accepted);
    const earlier = await trx
      .selectFrom('invoices')
      .selectAll()
      .where('quote_chain_id', '=', accepted.chain_id)
      .where('kind', '!=', 'credit_note')
      .where('status', '!=', 'void')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    checkKind(quote, input.kind, earlier);
    const rates: TaxRate[] = JSON.parse(accepted.tax_rates) as TaxRate[];
    const counted = countedLines(quote.lines, quote.sections);
    const work: NewInvoiceLine[] = counted.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      taxes: l.taxes,
    }));
    const lines =
      input.kind === 'deposit'
        ? depositLines(quote, counted, rates)
        : input.kind === 'final'
          ? [...work, ...(await subtracted(trx, earlier))]
          : work;
    if (lines.length === 0)
      throw kindRefusal(`${quoteLabel(quote)} has nothing to invoice: no line of it counts, or it comes to 0`);
    return insertDraft(ctx, trx, {
      kind: input.kind,
      quoteId: accepted.id,
      quoteChainId: accepted.chain_id,
      leadId: accepted.lead_id,
      creditOf: null,
      customer: quote.customer,
      title: quote.title,
      currency: accepted.currency,
      taxRates: rates,
      paymentTermsDays: settings.paymentTermsDays,
      lines,
    });
  });
}

/** The chain's rules, read under its lock (docs/invoices.md, "Kinds and the chain"). */
function checkKind(quote: QuoteView, kind: QuoteInvoiceKind, earlier: ReadonlyArray<Selectable<InvoiceTable>>) {
  const q = quoteLabel(quote);
  const of = (k: string) => earlier.find((i) => i.kind === k);
  const named = (row: Selectable<InvoiceTable>) => row.number ?? 'A draft invoice';
  if (!quote.deposit) {
    if (kind !== 'invoice')
      throw kindRefusal(`${q} asks no deposit: invoice it whole (Invoice) instead of a deposit and the rest`);
    const whole = of('invoice');
    if (whole) throw new AppError('already_invoiced', `${named(whole)} already invoices ${q}`, kindErrors(whole, q));
    return;
  }
  if (kind === 'invoice')
    throw kindRefusal(`${q} asks a deposit: invoice the deposit (Invoice deposit) or the rest (Invoice the rest)`);
  const rest = of('final');
  if (rest)
    throw new AppError(
      'already_invoiced',
      kind === 'final'
        ? `${named(rest)} already invoices the rest of ${q}`
        : `${named(rest)} already invoices the rest of ${q}: no deposit comes after it`,
      kindErrors(rest, q),
    );
  if (kind === 'deposit') {
    const deposit = of('deposit');
    if (deposit)
      throw new AppError(
        'already_invoiced',
        `${named(deposit)} already invoices the deposit of ${q}`,
        kindErrors(deposit, q),
      );
    return;
  }
  const draft = earlier.find((i) => i.status === 'draft');
  if (draft)
    throw kindRefusal(
      `The deposit invoice of ${q} is still a draft: send it (or void it) before invoicing the rest, which ` +
        `subtracts it`,
    );
}

function kindErrors(row: Selectable<InvoiceTable>, q: string) {
  const message = `${row.number ?? 'A draft invoice'} already invoices this for ${q}; void it first to make another`;
  return [{ field: 'kind', code: 'invalid' as const, message }];
}

/** The deposit invoice's lines: one per set of taxes, each p × the net sum of the counted lines carrying it. */
function depositLines(quote: QuoteView, counted: QuoteView['lines'], rates: readonly TaxRate[]): NewInvoiceLine[] {
  const share = depositShare(quote.deposit, quote.total);
  if (!share) return [];
  const parts = depositSplit(counted, rates, share);
  const how = quote.deposit!.percent !== null ? ` (${rateText(quote.deposit!.percent)} %)` : '';
  const base = `Deposit${how} on quote ${quoteLabel(quote)}`;
  return parts.map((part) => ({
    description:
      parts.length === 1
        ? base
        : `${base}: work ${part.taxes.length === 0 ? 'without tax' : `taxed ${part.taxes.join(' + ')}`}`,
    quantity: 100,
    unit: 'fixed',
    unitPrice: part.amount,
    taxes: part.taxes,
  }));
}

/** Each earlier invoice of the chain, line by line, as negative lines with the same taxes. */
async function subtracted(
  trx: Transaction<Schema>,
  earlier: ReadonlyArray<Selectable<InvoiceTable>>,
): Promise<NewInvoiceLine[]> {
  const lines: NewInvoiceLine[] = [];
  for (const invoice of earlier) {
    for (const line of await loadLines(trx, invoice.id)) {
      if (line.amount === 0) continue;
      lines.push({
        description: `Less ${invoice.number ?? 'invoice'}: ${line.description}`,
        quantity: 100,
        unit: 'fixed',
        unitPrice: -line.amount,
        taxes: line.taxes,
        subtractsInvoiceId: invoice.id,
      });
    }
  }
  return lines;
}
