import { sql, type Selectable, type Transaction } from 'kysely';
import type { InvoiceTable, Schema } from '../../storage/schema.js';
import { nowIso, type DomainContext } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { lineAmount, type TaxRate } from '../money.js';
import { invoiceStates, ISSUED_STATES, settledStatus, type InvoiceStatus, type InvoiceVerb } from './invoice-states.js';
import { invoiceTotals, loadLines } from './invoice-view.js';

/** A line as it is written: figures in the smallest unit and hundredths. */
export interface NewInvoiceLine {
  description: string;
  quantity: number;
  unit: string;
  unitPrice: number;
  taxes: string[];
  subtractsInvoiceId?: string | null;
  creditsLineId?: string | null;
}

/** Appends lines after the invoice's last, in their order; their amounts are quantity × unit price, rounded once. */
export async function insertLines(
  trx: Transaction<Schema>,
  invoiceId: string,
  lines: readonly NewInvoiceLine[],
): Promise<void> {
  if (lines.length === 0) return;
  const last = await trx
    .selectFrom('invoice_lines')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  const start = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
  // In slices: one statement of a 500-line final invoice would pass PostgreSQL's and SQLite's parameter limits.
  for (let from = 0; from < lines.length; from += 200) {
    await trx
      .insertInto('invoice_lines')
      .values(
        lines.slice(from, from + 200).map((line, i) => ({
          id: newId('ivl'),
          invoice_id: invoiceId,
          position: start + from + i,
          description: line.description,
          quantity: line.quantity,
          unit: line.unit,
          unit_price: line.unitPrice,
          amount: lineAmount(line.quantity, line.unitPrice),
          taxes: JSON.stringify(line.taxes),
          subtracts_invoice_id: line.subtractsInvoiceId ?? null,
          credits_line_id: line.creditsLineId ?? null,
        })),
      )
      .execute();
  }
}

/**
 * Recomputes a draft's subtotal and total from its lines and stores them with its balance, on the condition that it
 * is still a draft (the edit move): otherwise `invoice_not_editable`, and the caller's transaction rolls back with
 * every line it wrote. Every line edit ends with it, in its transaction.
 */
export async function storeDraftTotals(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  row: Pick<InvoiceTable, 'id' | 'tax_rates' | 'kind' | 'number'>,
): Promise<void> {
  const totals = invoiceTotals(await loadLines(trx, row.id), JSON.parse(row.tax_rates) as TaxRate[]);
  const stored = await trx
    .updateTable('invoices')
    .set({
      subtotal: totals.subtotal,
      total: totals.total,
      balance: row.kind === 'credit_note' ? 0 : totals.total,
      updated_at: nowIso(ctx),
    })
    .where('id', '=', row.id)
    .where('status', 'in', invoiceStates.moveFrom('edit'))
    .executeTakeFirst();
  changedExactly(
    stored,
    1,
    () =>
      new AppError('invoice_not_editable', `${row.number ?? 'This invoice'} was sent meanwhile; nothing was changed`),
  );
}

/**
 * Settles an issued invoice after its money changed (a payment recorded or deleted, a credit note sent or voided),
 * under its lock: `paid` from its payments, `credited` from its sent credit notes, `balance` = total − paid −
 * credited, and its status from that (`settledStatus`), written on the condition of `verb`'s from-states. Answers the
 * row as stored.
 */
export async function settleInvoice(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  row: Selectable<InvoiceTable>,
  verb: Extract<InvoiceVerb, 'pay' | 'settle'>,
): Promise<Selectable<InvoiceTable>> {
  const [payments, credits] = await Promise.all([
    trx
      .selectFrom('invoice_payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('sum'))
      .where('invoice_id', '=', row.id)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('invoices')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), sql<number>`0`).as('sum'))
      .where('credit_of', '=', row.id)
      .where('status', 'in', ISSUED_STATES)
      .executeTakeFirstOrThrow(),
  ]);
  const paid = Number(payments.sum);
  const credited = Number(credits.sum);
  const balance = Number(row.total) - paid - credited;
  const status: InvoiceStatus = settledStatus({ balance, paid, viewed: row.viewed_at !== null });
  const settled = await trx
    .updateTable('invoices')
    .set({ paid, credited, balance, status, updated_at: nowIso(ctx) })
    .where('id', '=', row.id)
    .where('status', 'in', invoiceStates.moveFrom(verb))
    .executeTakeFirst();
  changedExactly(
    settled,
    1,
    () =>
      new AppError('invoice_not_payable', `${row.number ?? 'This invoice'} changed meanwhile; nothing was recorded`),
  );
  return trx.selectFrom('invoices').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}
