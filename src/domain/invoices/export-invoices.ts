import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { recordAuditAlone } from '../audit/record-audit.js';
import type { WorkspaceContext, WorkspaceVerbArgs } from '../context.js';
import { csvStream, type CsvCell, type CsvNumber } from '../csv-cells.js';
import { AppError } from '../errors.js';
import { formatDecimal, lineAmount, minorDigits, rateText, type TaxRate } from '../money.js';
import { checkDay, checkDayRange } from '../day-range.js';
import { csvCellOf, sheetTime, xlsxBook, type SheetCell } from '../xlsx-sheet.js';
import type { InvoiceKind, InvoiceStatus } from './invoice-states.js';
import { invoiceTotals, lineOf, type InvoiceLineView } from './invoice-view.js';

/**
 * The books (docs/invoices.md, "The books"): the invoices and credit notes issued in a date range, one row each, and
 * a summary per tax and rate, for the accountant, as CSV or .xlsx. Read a page at a time (keyset paging on the index
 * `invoices_workspace_issued`), so a year of invoices takes the memory of a page of them.
 */

/** Rows read per query. */
const PAGE = 500;

export const BOOKS_FORMATS = ['csv', 'xlsx'] as const;
export type BooksFormat = (typeof BOOKS_FORMATS)[number];

export interface BooksRange {
  /** `YYYY-MM-DD`, both days included (issue dates). */
  from: string;
  to: string;
}

/** One invoice or credit note as the books list it; money in the smallest unit of its currency. */
export interface BooksRow {
  id: string;
  number: string;
  kind: InvoiceKind;
  /** The issue date. */
  date: string;
  customer: string | null;
  currency: string;
  /** The subtotal (a credit note's negative, a void one's 0). */
  net: number;
  /** Each tax of the export's columns (`taxNames`), in their order. */
  taxes: number[];
  gross: number;
  paid: number;
  balance: number;
  status: InvoiceStatus;
  /** The quote it was made from (`Q-0007`, `Q-0007 rev 2`), if any. */
  quote: string | null;
}

/** One row of the tax summary: what a tax at one rate applied to (net) and came to (tax), over the rows. */
export interface TaxSummaryRow {
  tax: string;
  /** Thousandths of a percent, as rates are kept. */
  rate: number;
  currency: string;
  net: number;
  amount: number;
}

/** The summary's last rows: the rows' net and all their taxes, per currency. */
export interface BooksTotal {
  currency: string;
  net: number;
  tax: number;
}

export interface Books {
  range: BooksRange;
  /** The tax columns: every tax name the range's invoices carry, in the order they first come. */
  taxNames: string[];
  /** The rows, oldest first (issue date, then the order they were sent). */
  rows(): AsyncGenerator<BooksRow>;
  /** The summary of the rows read so far: call it once `rows()` is read to its end. */
  summary(): { taxes: TaxSummaryRow[]; totals: BooksTotal[] };
}

/** The range asked for: two days, `to` not before `from`, at most 10 years (each refused beside its field). */
export function checkBooksRange(input: { from?: string; to?: string }): BooksRange {
  const missing = (field: 'from' | 'to', message: string) =>
    new AppError('invalid_fields', message, [{ field, code: 'required', message: 'A day, e.g. 2026-03-31' }]);
  if (!input.from?.trim()) throw missing('from', 'Give the first day of the range (from)');
  if (!input.to?.trim()) throw missing('to', 'Give the last day of the range (to)');
  return checkDayRange(checkDay('from', input.from), checkDay('to', input.to));
}

/** The issued invoices and credit notes of the range (drafts have no issue date), in the books' order. */
function issuedInRange(ctx: WorkspaceContext, range: BooksRange) {
  return ctx.store.db
    .selectFrom('invoices')
    .where('invoices.workspace_id', '=', ctx.workspaceId)
    .where('invoices.issue_date', '>=', range.from)
    .where('invoices.issue_date', '<=', range.to);
}

/** The tax names of the range's invoices, in the order they first come (the distinct sets, each in its own order). */
async function taxNamesOf(ctx: WorkspaceContext, range: BooksRange): Promise<string[]> {
  const sets = await issuedInRange(ctx, range)
    .select('invoices.tax_rates')
    .distinct()
    .orderBy('invoices.tax_rates')
    .execute();
  const names: string[] = [];
  for (const { tax_rates } of sets)
    for (const rate of JSON.parse(tax_rates) as TaxRate[]) if (!names.includes(rate.name)) names.push(rate.name);
  return names;
}

/** The books of a range: its tax columns, then its rows a page at a time, and their summary. */
export async function booksOf(ctx: WorkspaceContext, range: BooksRange): Promise<Books> {
  const taxNames = await taxNamesOf(ctx, range);
  const byRate = new Map<string, TaxSummaryRow>();
  const totals = new Map<string, BooksTotal>();

  function rowOf(
    r: {
      id: string;
      number: string | null;
      kind: string;
      status: string;
      issue_date: string | null;
      customer_name: string | null;
      currency: string;
      tax_rates: string;
      paid: number | bigint | string;
      balance: number | bigint | string;
      quote_number: string | null;
      quote_revision: number | bigint | string | null;
    },
    lines: InvoiceLineView[],
  ): BooksRow {
    const rates = JSON.parse(r.tax_rates) as TaxRate[];
    const kind = r.kind as InvoiceKind;
    const status = r.status as InvoiceStatus;
    // A credit note takes money back: its figures are negative. A void invoice is in the books by its number only.
    const sign = status === 'void' ? 0 : kind === 'credit_note' ? -1 : 1;
    const computed = invoiceTotals(lines, rates);
    const taxes = taxNames.map(() => 0);
    for (const t of computed.taxes) {
      const amount = sign * t.amount;
      taxes[taxNames.indexOf(t.name)]! += amount;
      let base = 0;
      for (const l of lines) if (l.taxes.includes(t.name)) base += lineAmount(l.quantity, l.unitPrice);
      const key = `${r.currency}\u0000${t.name}\u0000${t.rate}`;
      const entry = byRate.get(key) ?? { tax: t.name, rate: t.rate, currency: r.currency, net: 0, amount: 0 };
      entry.net += sign * base;
      entry.amount += amount;
      byRate.set(key, entry);
    }
    const net = sign * computed.subtotal;
    const gross = sign * computed.total;
    const total = totals.get(r.currency) ?? { currency: r.currency, net: 0, tax: 0 };
    total.net += net;
    total.tax += gross - net;
    totals.set(r.currency, total);
    const open = sign === 1;
    return {
      id: r.id,
      number: r.number ?? '',
      kind,
      date: r.issue_date ?? '',
      customer: r.customer_name,
      currency: r.currency,
      net,
      taxes,
      gross,
      paid: open ? Number(r.paid) : 0,
      balance: open ? Number(r.balance) : 0,
      status,
      quote: r.quote_number
        ? `${r.quote_number}${Number(r.quote_revision) > 1 ? ` rev ${Number(r.quote_revision)}` : ''}`
        : null,
    };
  }

  async function* rows(): AsyncGenerator<BooksRow> {
    let after: { date: string; sentAt: string; id: string } | undefined;
    for (;;) {
      let query = issuedInRange(ctx, range)
        .leftJoin('quotes', 'quotes.id', 'invoices.quote_id')
        .select([
          'invoices.id',
          'invoices.number',
          'invoices.kind',
          'invoices.status',
          'invoices.issue_date',
          'invoices.sent_at',
          'invoices.customer_name',
          'invoices.currency',
          'invoices.tax_rates',
          'invoices.paid',
          'invoices.balance',
          'quotes.number as quote_number',
          'quotes.revision as quote_revision',
        ]);
      if (after) {
        const { date, sentAt, id } = after;
        query = query.where(
          sql<boolean>`(invoices.issue_date > ${date} or (invoices.issue_date = ${date}
            and (invoices.sent_at > ${sentAt} or (invoices.sent_at = ${sentAt} and invoices.id > ${id}))))`,
        );
      }
      const page = await query
        .orderBy('invoices.issue_date')
        .orderBy('invoices.sent_at')
        .orderBy('invoices.id')
        .limit(PAGE)
        .execute();
      if (page.length === 0) return;
      const lineRows = await ctx.store.db
        .selectFrom('invoice_lines')
        .selectAll()
        .where(
          'invoice_id',
          'in',
          page.map((r) => r.id),
        )
        .orderBy('invoice_id')
        .orderBy('position')
        .orderBy('id')
        .execute();
      const linesOf = new Map<string, InvoiceLineView[]>();
      for (const l of lineRows) {
        const list = linesOf.get(l.invoice_id) ?? [];
        list.push(lineOf(l));
        linesOf.set(l.invoice_id, list);
      }
      for (const r of page) yield rowOf(r, linesOf.get(r.id) ?? []);
      const last = page.at(-1)!;
      if (page.length < PAGE) return;
      after = { date: last.issue_date ?? '', sentAt: last.sent_at ?? '', id: last.id };
    }
  }

  return {
    range,
    taxNames,
    rows,
    summary: () => ({
      taxes: [...byRate.values()].sort(
        (a, b) => a.currency.localeCompare(b.currency) || a.tax.localeCompare(b.tax) || a.rate - b.rate,
      ),
      totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    }),
  };
}

/** An amount in the smallest unit as a number cell with its currency's digits, exactly (no float on the way). */
function money(minor: number, currency: string): CsvNumber {
  return { csvNumber: formatDecimal(minor, minorDigits(currency)) };
}

/**
 * The CSV's and the Invoices sheet's header: `number,kind,date,customer,net,<each tax
 * name>,gross,paid,balance,status,quote`.
 */
export function booksHeader(taxNames: readonly string[]): string[] {
  return ['number', 'kind', 'date', 'customer', 'net', ...taxNames, 'gross', 'paid', 'balance', 'status', 'quote'];
}

function booksCells(row: BooksRow): SheetCell[] {
  const m = (minor: number) => money(minor, row.currency);
  return [
    row.number,
    row.kind,
    sheetTime(row.date),
    row.customer,
    m(row.net),
    ...row.taxes.map(m),
    m(row.gross),
    m(row.paid),
    m(row.balance),
    row.status,
    row.quote,
  ];
}

export const SUMMARY_HEADER = ['tax', 'rate', 'net', 'tax'];

/** The summary's rows: one per tax and rate, then `total`; with several currencies, each row names its currency. */
function summaryCells(books: Books, workspaceCurrency: string): CsvCell[][] {
  const { taxes, totals } = books.summary();
  const several = totals.length > 1;
  const named = (text: string, currency: string) => (several ? `${text} ${currency}` : text);
  const rows: CsvCell[][] = taxes.map((t) => [
    named(t.tax, t.currency),
    { csvNumber: rateText(t.rate) },
    money(t.net, t.currency),
    money(t.amount, t.currency),
  ]);
  const all = totals.length > 0 ? totals : [{ currency: workspaceCurrency, net: 0, tax: 0 }];
  for (const t of all)
    rows.push([named('total', t.currency), null, money(t.net, t.currency), money(t.tax, t.currency)]);
  return rows;
}

export interface ExportInvoicesInput {
  from?: string;
  to?: string;
  format: BooksFormat;
  /** CSV only: the tax summary instead of the rows (the .xlsx has both, as two sheets). */
  summary?: boolean;
}

/**
 * Export for the accountant (docs/invoices.md, "The books"): the range's invoices and credit notes as a CSV (the
 * rows, or with `summary` the tax summary) or an .xlsx of two sheets, **Invoices** and **Tax summary**, every cell
 * typed. The range is checked before anything is written, and the export is audited when it starts.
 */
export async function exportInvoices({ ctx, input }: WorkspaceVerbArgs<ExportInvoicesInput>): Promise<Readable> {
  const range = checkBooksRange(input);
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select('currency')
    .where('id', '=', ctx.workspaceId)
    .executeTakeFirstOrThrow();
  const currency = workspace.currency ?? 'USD';
  await recordAuditAlone(ctx, {
    action: 'invoice.exported',
    workspaceId: ctx.workspaceId,
    details: {
      ...(input.format === 'xlsx' ? { excel: true } : {}),
      ...(input.summary && input.format === 'csv' ? { summary: true } : {}),
    },
  });
  const books = await booksOf(ctx, range);
  const header = booksHeader(books.taxNames);
  async function* invoiceRows(): AsyncGenerator<SheetCell[]> {
    yield header;
    for await (const row of books.rows()) yield booksCells(row);
  }
  async function* summaryRows(): AsyncGenerator<CsvCell[]> {
    if (input.format === 'csv') for await (const row of books.rows()) void row;
    yield SUMMARY_HEADER;
    yield* summaryCells(books, currency);
  }
  if (input.format === 'xlsx')
    return xlsxBook([
      { name: 'Invoices', rows: invoiceRows(), widths: header.map((h) => (h === 'customer' ? 28 : 14)) },
      { name: 'Tax summary', rows: summaryRows(), widths: [16, 10, 16, 16] },
    ]);
  if (input.summary) return csvStream(summaryRows());
  return csvStream(csvRows(invoiceRows()));
}

async function* csvRows(rows: AsyncIterable<SheetCell[]>): AsyncGenerator<CsvCell[]> {
  for await (const row of rows) yield row.map(csvCellOf);
}

/** `csv` or `xlsx`, else refused beside `format`. */
export function checkBooksFormat(value: string): BooksFormat {
  if (!(BOOKS_FORMATS as readonly string[]).includes(value))
    throw new AppError('invalid_fields', '--format is csv or xlsx', [
      { field: 'format', code: 'invalid', message: 'Choose csv or xlsx' },
    ]);
  return value as BooksFormat;
}
