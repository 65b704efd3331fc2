import type { Kysely, Selectable, Transaction } from 'kysely';
import type { InvoiceLineTable, InvoicePaymentTable, InvoiceTable, Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { computeTotals, type TaxRate } from '../money.js';
import { todayIn } from '../quotes/quote-view.js';
import { OPEN_STATES, type InvoiceKind, type InvoiceStatus } from './invoice-states.js';

type Db = Kysely<Schema> | Transaction<Schema>;

export interface InvoiceLineView {
  id: string;
  description: string;
  /** Hundredths: 250 is 2.5. */
  quantity: number;
  unit: string;
  /** Smallest currency unit. */
  unitPrice: number;
  amount: number;
  taxes: string[];
  /** A final invoice's negative line: the earlier invoice of the quote's chain it subtracts. */
  subtractsInvoiceId: string | null;
  /** A credit note's line: the invoice line it credits. */
  creditsLineId: string | null;
}

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'cheque', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface InvoicePaymentView {
  id: string;
  /** `YYYY-MM-DD`. */
  date: string;
  amount: number;
  method: PaymentMethod;
  reference: string | null;
  recordedByUserId: string | null;
  createdAt: string;
}

/** A credit note of an invoice, as the invoice's page and JSON name it. */
export interface CreditNoteSummary {
  id: string;
  number: string | null;
  status: InvoiceStatus;
  total: number;
}

/** An invoice or credit note as the verbs answer it; `invoices show --json` prints the §24 part of it. */
export interface InvoiceView {
  id: string;
  workspaceId: string;
  number: string | null;
  kind: InvoiceKind;
  /** As stored; `overdue` says whether an open invoice is past its due date in the workspace's time zone. */
  status: InvoiceStatus;
  overdue: boolean;
  /** The accepted quote revision it was made from (null for a blank invoice, or once that quote was deleted). */
  quoteId: string | null;
  quoteChainId: string | null;
  leadId: string | null;
  /** For a credit note: the invoice it credits. */
  creditOf: { id: string; number: string | null } | null;
  currency: string;
  /** The locale its figures and dates are shown in: frozen at its send, the workspace's before. */
  locale: string;
  taxRates: TaxRate[];
  customer: { name: string | null; email: string | null; phone: string | null; address: string | null };
  title: string | null;
  note: string | null;
  /** The sender's own words in the email Send queues (docs/invoices.md, "Send"); null for none. */
  sendMessage: string | null;
  paymentTermsDays: number;
  /** Frozen at the send (Settings' before it). */
  paymentInstructions: string | null;
  lines: InvoiceLineView[];
  subtotal: number;
  taxes: Array<{ name: string; rate: number; amount: number }>;
  total: number;
  /** What its payments add up to. */
  paid: number;
  /** What its sent credit notes add up to. */
  credited: number;
  /** total − paid − credited; below zero, the customer is owed that much back (0 for a credit note). */
  balance: number;
  /** −balance when the customer paid or was credited more than the invoice asks, else 0. */
  owedBack: number;
  issueDate: string | null;
  dueDate: string | null;
  createdAt: string;
  sentAt: string | null;
  sentByUserId: string | null;
  viewedAt: string | null;
  viewCount: number;
  voidedAt: string | null;
  voidReason: string | null;
  /** For a credit note: why it was made. */
  creditReason: string | null;
  payments: InvoicePaymentView[];
  /** Its credit notes, drafts and void ones too, oldest first. */
  credits: CreditNoteSummary[];
  /** `{base}/i/{token}` once sent; null for a draft. */
  customerUrl: string | null;
}

export function lineOf(row: Selectable<InvoiceLineTable>): InvoiceLineView {
  return {
    id: row.id,
    description: row.description,
    quantity: Number(row.quantity),
    unit: row.unit,
    unitPrice: Number(row.unit_price),
    amount: Number(row.amount),
    taxes: JSON.parse(row.taxes) as string[],
    subtractsInvoiceId: row.subtracts_invoice_id,
    creditsLineId: row.credits_line_id,
  };
}

export function paymentOf(row: Selectable<InvoicePaymentTable>): InvoicePaymentView {
  return {
    id: row.id,
    date: row.paid_on,
    amount: Number(row.amount),
    method: row.method as PaymentMethod,
    reference: row.reference,
    recordedByUserId: row.recorded_by_user_id,
    createdAt: row.created_at,
  };
}

/** Open (sent, viewed or partly paid) and past the end of its due day in the workspace's time zone. */
export function isOverdue(
  row: Pick<InvoiceTable, 'kind' | 'status' | 'due_date'>,
  timeZone: string,
  now: Date,
): boolean {
  return isOverdueOn(row, todayIn(timeZone, now));
}

/** The same on `today` (the workspace's date), for a list that asks it of every row. */
export function isOverdueOn(row: Pick<InvoiceTable, 'kind' | 'status' | 'due_date'>, today: string): boolean {
  return (
    row.kind !== 'credit_note' &&
    (OPEN_STATES as readonly string[]).includes(row.status) &&
    row.due_date !== null &&
    today > row.due_date
  );
}

export function customerUrlOf(ctx: DomainContext, tokenEnc: string | null): string | null {
  if (tokenEnc === null) return null;
  const base = ctx.config.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  return `${base}/i/${ctx.secrets.open(tokenEnc)}`;
}

export async function loadLines(db: Db, invoiceId: string): Promise<InvoiceLineView[]> {
  const rows = await db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(lineOf);
}

/** The workspace's time zone and locale (a draft's figures are shown in the workspace's locale). */
async function workspaceFrame(db: Db, workspaceId: string): Promise<{ timeZone: string; locale: string }> {
  const row = await db
    .selectFrom('workspaces')
    .select(['time_zone', 'locale'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return { timeZone: row?.time_zone ?? 'UTC', locale: row?.locale ?? 'en-US' };
}

/**
 * An invoice as stored, with its lines, payments and credit notes, its taxes computed from its lines by the one rule
 * of src/domain/money.ts (each tax rounded once over the lines it applies to).
 */
export async function loadInvoiceView(ctx: DomainContext, db: Db, row: Selectable<InvoiceTable>): Promise<InvoiceView> {
  const [lines, payments, credits, credited, frame] = await Promise.all([
    loadLines(db, row.id),
    db
      .selectFrom('invoice_payments')
      .selectAll()
      .where('invoice_id', '=', row.id)
      .orderBy('paid_on')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('invoices')
      .select(['id', 'number', 'status', 'total'])
      .where('credit_of', '=', row.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    row.credit_of
      ? db.selectFrom('invoices').select(['id', 'number']).where('id', '=', row.credit_of).executeTakeFirst()
      : Promise.resolve(undefined),
    workspaceFrame(db, row.workspace_id),
  ]);
  return viewOf(ctx, row, { lines, payments: payments.map(paymentOf), credits, creditOf: credited ?? null, frame });
}

export interface InvoiceParts {
  lines: InvoiceLineView[];
  payments: InvoicePaymentView[];
  credits: Array<{ id: string; number: string | null; status: string; total: number }>;
  creditOf: { id: string; number: string | null } | null;
  frame: { timeZone: string; locale: string };
}

export function viewOf(ctx: DomainContext, row: Selectable<InvoiceTable>, parts: InvoiceParts): InvoiceView {
  const taxRates = JSON.parse(row.tax_rates) as TaxRate[];
  const totals = invoiceTotals(parts.lines, taxRates);
  const balance = Number(row.balance);
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    number: row.number,
    kind: row.kind as InvoiceKind,
    status: row.status as InvoiceStatus,
    overdue: isOverdue(row, parts.frame.timeZone, ctx.clock.now()),
    quoteId: row.quote_id,
    quoteChainId: row.quote_chain_id,
    leadId: row.lead_id,
    creditOf: parts.creditOf,
    currency: row.currency,
    locale: row.locale ?? parts.frame.locale,
    taxRates,
    customer: {
      name: row.customer_name,
      email: row.customer_email,
      phone: row.customer_phone,
      address: row.customer_address,
    },
    title: row.title,
    note: row.note,
    sendMessage: row.send_message ?? null,
    paymentTermsDays: Number(row.payment_terms_days),
    paymentInstructions: row.payment_instructions,
    lines: parts.lines,
    subtotal: totals.subtotal,
    taxes: totals.taxes,
    total: totals.total,
    paid: Number(row.paid),
    credited: Number(row.credited),
    balance,
    owedBack: balance < 0 ? -balance : 0,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    sentByUserId: row.sent_by_user_id,
    viewedAt: row.viewed_at,
    viewCount: Number(row.view_count),
    voidedAt: row.voided_at,
    voidReason: row.void_reason,
    creditReason: row.credit_reason,
    payments: parts.payments,
    credits: parts.credits.map((c) => ({
      id: c.id,
      number: c.number,
      status: c.status as InvoiceStatus,
      total: Number(c.total),
    })),
    customerUrl: customerUrlOf(ctx, row.token_enc),
  };
}

/** An invoice's subtotal, taxes and total: every line counts (an invoice has no optional lines). */
export function invoiceTotals(
  lines: ReadonlyArray<Pick<InvoiceLineView, 'quantity' | 'unitPrice' | 'taxes'>>,
  rates: readonly TaxRate[],
) {
  return computeTotals(
    lines.map((l) => ({ quantity: l.quantity, unitPrice: l.unitPrice, taxes: l.taxes, optional: false, chosen: true })),
    rates,
  );
}

/** An invoice of the context's workspace by id, or `invoice_not_found` (another workspace's too). */
export async function findInvoiceRow(
  db: Db,
  { workspaceId, invoiceId }: { workspaceId: string; invoiceId: string },
): Promise<Selectable<InvoiceTable>> {
  const row = await db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', invoiceId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('invoice_not_found', `No invoice ${invoiceId} in this workspace`);
  return row;
}

/** An invoice read again inside a write (after the verb changed it), as the verbs answer it. */
export async function reloadInvoice(ctx: DomainContext, db: Db, invoiceId: string): Promise<InvoiceView> {
  return loadInvoiceView(
    ctx,
    db,
    await db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirstOrThrow(),
  );
}
