import { sql } from 'kysely';
import type { DomainContext, WorkspaceContext, WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { todayIn } from '../quotes/quote-view.js';
import { isOverdueOn } from './invoice-view.js';
import type { InvoiceKind, InvoiceStatus } from './invoice-states.js';

/** The Invoices screen's filters (docs/invoices.md, "The list"); `overdue` is derived, the others are states. */
export const INVOICE_FILTERS = ['draft', 'sent', 'overdue', 'partly_paid', 'paid', 'void'] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

export function checkInvoiceFilter(value: string): InvoiceFilter {
  const status = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!(INVOICE_FILTERS as readonly string[]).includes(status)) {
    const message = `Choose ${INVOICE_FILTERS.join(', ')}`;
    throw new AppError('invalid_fields', `The status is one of ${INVOICE_FILTERS.join(', ')}`, [
      { field: 'status', code: 'invalid', message },
    ]);
  }
  return status as InvoiceFilter;
}

/** One row of the Invoices list (and `invoices list --json`). */
export interface InvoiceSummary {
  id: string;
  number: string | null;
  kind: InvoiceKind;
  status: InvoiceStatus;
  overdue: boolean;
  leadId: string | null;
  quoteId: string | null;
  creditOf: string | null;
  customerName: string | null;
  currency: string;
  total: number;
  paid: number;
  balance: number;
  issueDate: string | null;
  dueDate: string | null;
  createdAt: string;
  sentAt: string | null;
}

export const LIST_LIMIT = { size: 50, max: 1000 } as const;

export interface ListInvoicesInput {
  status?: InvoiceFilter;
  /** A lead's invoices and credit notes (the lead's page). */
  leadId?: string;
  /** At most this many (50 unless told, at most 1000). */
  limit?: number;
  /** The next page: the rows after the last one seen (its `createdAt`, or for Overdue its `dueDate`, and its `id`). */
  after?: { at: string; id: string };
}

/**
 * The list's query for `today` (the workspace's date), kept apart so a test can pin its plan: each filter reads its
 * index (migration 0048) in the screen's order, newest first, a page at a time (the cursor is the last row seen).
 */
export function invoiceListQuery(ctx: WorkspaceContext, input: ListInvoicesInput, today: string) {
  let query = ctx.store.db
    .selectFrom('invoices')
    .select([
      'id',
      'number',
      'kind',
      'status',
      'lead_id',
      'quote_id',
      'credit_of',
      'customer_name',
      'currency',
      'total',
      'paid',
      'balance',
      'issue_date',
      'due_date',
      'created_at',
      'sent_at',
    ])
    .where('workspace_id', '=', ctx.workspaceId);
  if (input.leadId !== undefined) query = query.where('lead_id', '=', input.leadId);
  const status = input.status;
  const limit = Math.min(Math.max(1, input.limit ?? LIST_LIMIT.size), LIST_LIMIT.max);
  const after = input.after;
  // The partial indexes' conditions written as literals: a planner uses such an index only for a query that states
  // its condition, and SQLite only when it is spelled out rather than bound.
  if (status === 'overdue') {
    // The longest overdue first.
    query = query.where(sql<boolean>`status in ('sent', 'viewed', 'partly_paid')`).where('due_date', '<', today);
    if (after)
      query = query.where((eb) =>
        eb.or([eb('due_date', '>', after.at), eb.and([eb('due_date', '=', after.at), eb('id', '>', after.id)])]),
      );
    return query.orderBy('due_date').orderBy('id').limit(limit);
  }
  if (status === 'sent') query = query.where(sql<boolean>`status in ('sent', 'viewed')`);
  else if (status !== undefined) query = query.where('status', '=', status);
  if (after)
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.at), eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)])]),
    );
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}

/**
 * A workspace's invoices and credit notes, newest first, a page at a time: the Invoices screen with its filters
 * (Draft, Sent, Overdue, Partly paid, Paid, Void), `invoices list`, a lead's page (`leadId`). `sent` is sent or
 * viewed; `overdue` is any open invoice (sent, viewed, partly paid) past its due date in the workspace's time zone,
 * the longest overdue first, so an overdue invoice is listed under Sent or Partly paid as well, marked overdue.
 */
export async function listInvoices({ ctx, input }: WorkspaceVerbArgs<ListInvoicesInput>): Promise<InvoiceSummary[]> {
  const todayOf = async () => todayIn(await timeZoneOf(ctx, ctx.workspaceId), ctx.clock.now());
  // Only the Overdue filter asks the query for today; the others read the rows beside the time zone (one round trip
  // less), and today marks the overdue among them.
  let today: string;
  let rows;
  if (input.status === 'overdue') {
    today = await todayOf();
    rows = await invoiceListQuery(ctx, input, today).execute();
  } else [today, rows] = await Promise.all([todayOf(), invoiceListQuery(ctx, input, '').execute()]);
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    kind: r.kind as InvoiceKind,
    status: r.status as InvoiceStatus,
    overdue: isOverdueOn(r, today),
    leadId: r.lead_id,
    quoteId: r.quote_id,
    creditOf: r.credit_of,
    customerName: r.customer_name,
    currency: r.currency,
    total: Number(r.total),
    paid: Number(r.paid),
    balance: Number(r.balance),
    issueDate: r.issue_date,
    dueDate: r.due_date,
    createdAt: r.created_at,
    sentAt: r.sent_at,
  }));
}

async function timeZoneOf(ctx: DomainContext, workspaceId: string): Promise<string> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .select('time_zone')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}

/** What is still to be paid, per currency: all open invoices, and those of them past their due date. */
export interface OutstandingTotals {
  /** The workspace's currency now; its sums are `outstanding` and `overdue`. */
  currency: string;
  outstanding: number;
  outstandingCount: number;
  overdue: number;
  overdueCount: number;
  /** Invoices made in another currency (the workspace's was changed since): their own sums, never converted. */
  otherCurrencies: Array<{ currency: string; outstanding: number; overdue: number }>;
}

/**
 * The Invoices screen's outstanding and overdue totals: the balances of the open invoices (sent, viewed, partly
 * paid), and of those past their due date in the workspace's time zone; credit notes are not open. Read from the
 * totals kept per due day (`invoice_open_totals`, migration 0055), in currency order (docs/invoices.md, "The list").
 */
export async function outstandingTotals({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<OutstandingTotals> {
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['time_zone', 'currency'])
    .where('id', '=', ctx.workspaceId)
    .executeTakeFirstOrThrow();
  const today = todayIn(workspace.time_zone ?? 'UTC', ctx.clock.now());
  const rows = (await outstandingTotalsQuery(ctx, today).execute()).map((r) => ({
    currency: r.currency,
    outstanding: Number(r.sum),
    outstandingCount: Number(r.n),
    overdue: Number(r.late_sum),
    overdueCount: Number(r.late_n),
  }));
  const currency = workspace.currency ?? 'USD';
  const own = rows.find((r) => r.currency === currency);
  return {
    currency,
    outstanding: own?.outstanding ?? 0,
    outstandingCount: own?.outstandingCount ?? 0,
    overdue: own?.overdue ?? 0,
    overdueCount: own?.overdueCount ?? 0,
    otherCurrencies: rows
      .filter((r) => r.currency !== currency)
      .map((r) => ({ currency: r.currency, outstanding: r.outstanding, overdue: r.overdue })),
  };
}

/**
 * The totals' query for `today` (the workspace's date), kept apart so a test can pin its plan: per currency, the open
 * invoices' balances and how many, and the same of those past their due date, from the totals the triggers of
 * migration 0055 keep per due day (a few hundred rows a workspace, not every open invoice).
 */
export function outstandingTotalsQuery(ctx: WorkspaceContext, today: string) {
  const late = sql<boolean>`due_date < ${today}`;
  return ctx.store.db
    .selectFrom('invoice_open_totals')
    .select([
      'currency',
      (eb) => eb.fn.sum<number>('balance').as('sum'),
      (eb) => eb.fn.sum<number>('open_count').as('n'),
      sql<number>`sum(case when ${late} then balance else 0 end)`.as('late_sum'),
      sql<number>`sum(case when ${late} then open_count else 0 end)`.as('late_n'),
    ])
    .where('workspace_id', '=', ctx.workspaceId)
    .groupBy('currency');
}
