import type { Kysely, Selectable, Transaction } from 'kysely';
import type { QuoteLineTable, QuoteTable, Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { setQuoteLineIntegers } from '../../storage/quote-lines-sql.js';
import { computeTotals, type TaxRate } from '../money.js';

/** Where a measured line came from (docs/quotes.md, "Lines from scans"). */
export interface LineSource {
  scanId: string;
  /** The room's index in the scan, from 1. */
  room: number;
  measure: string;
  /** The room's figure in the item's unit, at full precision. */
  measured: number;
  /** Waste in percent. */
  waste: number;
  coats: number;
  /** What one pack covers, in the item's unit; null when sold by the unit. */
  pack: number | null;
}

export interface QuoteLineView {
  id: string;
  description: string;
  /** Hundredths: 2316 is 23.16. */
  quantity: number;
  unit: string;
  /** Smallest currency unit. */
  unitPrice: number;
  amount: number;
  taxes: string[];
  optional: boolean;
  chosen: boolean;
  source: LineSource | null;
}

/** A revision's state; `expired` is a sent or viewed quote past the end of its valid-until day. */
export type QuoteStatus = 'draft' | 'sent' | 'viewed' | 'accepted' | 'declined' | 'withdrawn' | 'replaced' | 'expired';

export const LIST_STATUSES = ['draft', 'sent', 'viewed', 'accepted', 'declined', 'withdrawn', 'expired'] as const;

/** A quote as `quotes show --json` prints it (docs/quotes.md, "The CLI"), plus what the builder also needs. */
export interface QuoteView {
  id: string;
  number: string | null;
  revision: number;
  status: QuoteStatus;
  leadId: string;
  workspaceId: string;
  currency: string;
  customer: { name: string | null; email: string | null; phone: string | null; address: string | null };
  title: string | null;
  note: string | null;
  terms: string | null;
  lines: QuoteLineView[];
  subtotal: number;
  taxes: Array<{ name: string; rate: number; amount: number }>;
  total: number;
  validUntil: string;
  createdAt: string;
  sentAt: string | null;
  viewedAt: string | null;
  viewCount: number;
  acceptedAt: string | null;
  acceptedName: string | null;
  acceptanceHash: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  withdrawnAt: string | null;
  /** `{base}/q/{token}` once the quote was sent (and not erased); null for a draft never sent. */
  customerUrl: string | null;
}

type Db = Kysely<Schema> | Transaction<Schema>;

/** Today's date (`YYYY-MM-DD`) in a time zone. */
/** One formatter per time zone: making one costs more than a page of quotes' other work (a list asks per row). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

export function todayIn(timeZone: string, now: Date): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** A date `days` after `date` (`YYYY-MM-DD`, calendar arithmetic). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Past the end of its valid-until day in the workspace's time zone. */
export function isExpired(validUntil: string, timeZone: string, now: Date): boolean {
  return todayIn(timeZone, now) > validUntil;
}

export function statusOf(row: Pick<QuoteTable, 'status' | 'valid_until'>, timeZone: string, now: Date): QuoteStatus {
  if ((row.status === 'sent' || row.status === 'viewed') && isExpired(row.valid_until, timeZone, now)) return 'expired';
  return row.status as QuoteStatus;
}

export function lineOf(row: Selectable<QuoteLineTable>): QuoteLineView {
  return {
    id: row.id,
    description: row.description,
    quantity: Number(row.quantity),
    unit: row.unit,
    unitPrice: Number(row.unit_price),
    amount: Number(row.amount),
    taxes: JSON.parse(row.taxes) as string[],
    optional: Boolean(Number(row.optional)),
    chosen: Boolean(Number(row.chosen)),
    source: row.source === null ? null : (JSON.parse(row.source) as LineSource),
  };
}

export function customerUrlOf(ctx: DomainContext, tokenEnc: string | null): string | null {
  if (tokenEnc === null) return null;
  const base = ctx.config.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  return `${base}/q/${ctx.secrets.open(tokenEnc)}`;
}

export async function loadLines(db: Db, quoteId: string): Promise<QuoteLineView[]> {
  const rows = await db
    .selectFrom('quote_lines')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(lineOf);
}

export async function timeZoneOf(db: Db, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('workspaces').select('time_zone').where('id', '=', workspaceId).executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}

export function viewOf(
  ctx: DomainContext,
  row: Selectable<QuoteTable>,
  lines: QuoteLineView[],
  timeZone: string,
): QuoteView {
  const rates = JSON.parse(row.tax_rates) as TaxRate[];
  const totals = computeTotals(lines, rates);
  return {
    id: row.id,
    number: row.number,
    revision: Number(row.revision),
    status: statusOf(row, timeZone, ctx.clock.now()),
    leadId: row.lead_id,
    workspaceId: row.workspace_id,
    currency: row.currency,
    customer: {
      name: row.customer_name,
      email: row.customer_email,
      phone: row.customer_phone,
      address: row.customer_address,
    },
    title: row.title,
    note: row.note,
    terms: row.terms,
    lines,
    subtotal: totals.subtotal,
    taxes: totals.taxes,
    total: totals.total,
    validUntil: row.valid_until,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    viewedAt: row.viewed_at,
    viewCount: Number(row.view_count),
    acceptedAt: row.accepted_at,
    acceptedName: row.accepted_name,
    acceptanceHash: row.acceptance_hash,
    declinedAt: row.declined_at,
    declineReason: row.decline_reason,
    withdrawnAt: row.withdrawn_at,
    customerUrl: customerUrlOf(ctx, row.token_enc),
  };
}

/** A quote row of the workspace by id (any workspace when none is given: the CLI), or `quote_not_found`. */
export async function findQuoteRow(
  db: Db,
  { workspaceId, quoteId }: { workspaceId?: string; quoteId: string },
): Promise<Selectable<QuoteTable>> {
  const row = await db
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', quoteId)
    .$if(workspaceId !== undefined, (q) => q.where('workspace_id', '=', workspaceId!))
    .executeTakeFirst();
  if (!row) throw new AppError('quote_not_found', `No quote ${quoteId}${workspaceId ? ' in this workspace' : ''}`);
  return row;
}

export async function loadQuoteView(ctx: DomainContext, db: Db, row: Selectable<QuoteTable>): Promise<QuoteView> {
  return viewOf(ctx, row, await loadLines(db, row.id), await timeZoneOf(db, row.workspace_id));
}

/** Line edits, title, terms…: only a draft changes (a sent quote is revised instead). */
export function requireDraft(row: Pick<QuoteTable, 'status' | 'number' | 'revision'>): void {
  if (row.status !== 'draft') {
    throw new AppError(
      'quote_not_editable',
      `${row.number ?? 'This quote'}${Number(row.revision) > 1 ? ` rev ${row.revision}` : ''} is ${row.status}: a sent quote is never changed; revise it to make a new draft`,
    );
  }
}

/**
 * Recomputes and stores a revision's line amounts and totals (every line edit ends with it, in its transaction), and
 * answers the revision as saved. The lines are read once, for the totals and the answer alike, and amounts that
 * changed are written in one statement (docs/performance.md, "Quotes at scale"). The totals are written only while
 * the revision is in one of `inStates` (the caller's move, quote-states.ts): otherwise `quote_not_editable`, and the
 * caller's transaction rolls back with every line it wrote.
 */
export async function storeTotals(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  quoteId: string,
  updatedAt: string,
  inStates: readonly string[],
): Promise<QuoteView> {
  const quote = await trx
    .selectFrom('quotes')
    .select(['tax_rates'])
    .where('id', '=', quoteId)
    .executeTakeFirstOrThrow();
  const stored = await loadLines(trx, quoteId);
  const totals = computeTotals(stored, JSON.parse(quote.tax_rates) as TaxRate[]);
  const lines = stored.map((line, i) => ({ ...line, amount: totals.amounts[i]! }));
  const changed = lines
    .filter((line, i) => line.amount !== stored[i]!.amount)
    .map((line) => ({ id: line.id, value: line.amount }));
  if (changed.length > 0) await setQuoteLineIntegers(trx, quoteId, 'amount', changed);
  const row = await trx
    .updateTable('quotes')
    .set({ subtotal: totals.subtotal, total: totals.total, updated_at: updatedAt })
    .where('id', '=', quoteId)
    .where('status', 'in', inStates)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('quote_not_editable', 'This quote was sent or answered meanwhile; nothing was changed');
  return viewOf(ctx, row, lines, await timeZoneOf(trx, row.workspace_id));
}
