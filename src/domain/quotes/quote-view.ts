import type { Kysely, Selectable, Transaction } from 'kysely';
import type { QuoteLineTable, QuoteSectionTable, QuoteTable, Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { setQuoteLineIntegers } from '../../storage/quote-lines-sql.js';
import { computeTotals, depositAmount, type DepositTerms, type TaxRate } from '../money.js';

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
  /**
   * How the quantity was measured, as the staff's view (and, when the quote says so, the customer's page) shows it:
   * "Kitchen: walls (net) 32.78 m² × 2 coats = 7 packs of 10 m²", the figure in the item's unit. Absent on lines made
   * before it was kept apart, whose description said it.
   */
  note?: string;
  /**
   * A pack item (one line for the whole job, packs rounded once over the summed need): each room with its figure in
   * the item's unit. `scanId` and `room` are then the first room's, `measured` the sum.
   */
  rooms?: Array<{ scanId: string; room: number; name: string; measured: number }>;
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
  /** The section the line sits in (`QuoteView.sections`). */
  sectionId: string;
}

/** A section of a quote (docs/quotes.md, "Sections and alternatives"), as `quotes show --json` prints it. */
export interface QuoteSectionView {
  id: string;
  /** Its heading; null for a section without one. */
  title: string | null;
  /** Its lines that count within it (not optional, or ticked), before taxes, whether or not it is the one taken. */
  subtotal: number;
  /** The choice group's key: sections sharing it are alternatives of one another ("choose one"); null otherwise. */
  choice: string | null;
  /** The alternative the sender recommends (chosen at first). */
  recommended: boolean;
  /** For an alternative, whether it is the one taken; a section that is no alternative is always taken. */
  chosen: boolean;
}

/** The deposit a quote asks: its terms (a percentage in thousandths, or a fixed amount) and the amount due now. */
export interface QuoteDeposit extends DepositTerms {
  /** Due on acceptance, from the total of the lines that count (the customer's choices), taxes included. */
  amount: number;
}

/** What the customer chose at acceptance against what was sent (the optional lines ticked, the alternatives taken). */
export interface SentChoices {
  lines: string[];
  sections: string[];
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
  /** In their order; every quote has at least one. */
  sections: QuoteSectionView[];
  /** In the order shown: by section, then within each section. */
  lines: QuoteLineView[];
  /** Null when the quote asks no deposit. */
  deposit: QuoteDeposit | null;
  /** Whether the customer's page says how each quantity was measured (`source.note`). */
  showMeasurements: boolean;
  /** The sender's message in the email Send queues (never on the customer's page); null for none. */
  sendMessage: string | null;
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
  /** The canonical JSON's version the acceptance hash was made with (docs/quotes.md, "The acceptance hash"). */
  acceptanceVersion: 1 | 2 | null;
  /** At acceptance: the optional lines ticked and the alternatives chosen as the sender sent them. */
  sentChoices: SentChoices | null;
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

export function lineOf(row: Selectable<QuoteLineTable>, fallbackSection = ''): QuoteLineView {
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
    sectionId: row.section_id ?? fallbackSection,
  };
}

export function sectionOf(row: Selectable<QuoteSectionTable>): Omit<QuoteSectionView, 'subtotal'> {
  const choice = row.choice ?? null;
  return {
    id: row.id,
    title: row.title,
    choice,
    recommended: choice !== null && Boolean(Number(row.recommended)),
    chosen: choice === null || Boolean(Number(row.chosen)),
  };
}

/** A revision's sections and lines, in the order shown. */
export interface QuoteContent {
  sections: Array<Omit<QuoteSectionView, 'subtotal'>>;
  lines: QuoteLineView[];
}

export function customerUrlOf(ctx: DomainContext, tokenEnc: string | null): string | null {
  if (tokenEnc === null) return null;
  const base = ctx.config.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  return `${base}/q/${ctx.secrets.open(tokenEnc)}`;
}

/**
 * A revision's sections and its lines in the order shown: by section, then by position within it. A line whose
 * section is missing (none should be) is shown in the first.
 */
export async function loadContent(db: Db, quoteId: string): Promise<QuoteContent> {
  const [sectionRows, lineRows] = await Promise.all([
    db
      .selectFrom('quote_sections')
      .selectAll()
      .where('quote_id', '=', quoteId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('quote_lines')
      .selectAll()
      .where('quote_id', '=', quoteId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const sections = sectionRows.map(sectionOf);
  const first = sections[0]?.id ?? '';
  const order = new Map(sections.map((section, i) => [section.id, i]));
  const lines = lineRows
    .map((row) => lineOf(row, first))
    .map((line) => (order.has(line.sectionId) ? line : { ...line, sectionId: first }));
  // A stable sort keeps the position order within each section.
  lines.sort((a, b) => order.get(a.sectionId)! - order.get(b.sectionId)!);
  return { sections, lines };
}

/** A revision's lines in the order shown. */
export async function loadLines(db: Db, quoteId: string): Promise<QuoteLineView[]> {
  return (await loadContent(db, quoteId)).lines;
}

/** The deposit terms kept on a quote (or a workspace), or null for none. */
export function depositTermsOf(row: {
  deposit_percent?: number | null;
  deposit_amount?: number | null;
}): DepositTerms | null {
  const percent = row.deposit_percent ?? null;
  const fixed = row.deposit_amount ?? null;
  if (percent === null && fixed === null) return null;
  return {
    percent: percent === null ? null : Number(percent),
    fixed: percent !== null || fixed === null ? null : Number(fixed),
  };
}

export async function timeZoneOf(db: Db, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('workspaces').select('time_zone').where('id', '=', workspaceId).executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}

/**
 * A revision as the builder, the customer's page and `quotes show --json` read it: its totals, section subtotals and
 * deposit computed from its lines by the one counting rule (`computeTotals`, `counts` in src/domain/money.ts).
 */
export function viewOf(
  ctx: DomainContext,
  row: Selectable<QuoteTable>,
  content: QuoteContent,
  timeZone: string,
): QuoteView {
  const rates = JSON.parse(row.tax_rates) as TaxRate[];
  const totals = computeTotals(content.lines, rates, content.sections);
  const terms = depositTermsOf(row);
  const version =
    row.acceptance_version === null || row.acceptance_version === undefined ? null : Number(row.acceptance_version);
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
    sections: content.sections.map((section, i) => ({ ...section, subtotal: totals.sections[i]!.subtotal })),
    lines: content.lines,
    deposit: terms ? { ...terms, amount: depositAmount(terms, totals.total)! } : null,
    showMeasurements: Boolean(Number(row.show_measurements ?? 0)),
    sendMessage: row.send_message ?? null,
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
    acceptanceVersion: version === 1 || version === 2 ? version : null,
    sentChoices: row.sent_choices ? (JSON.parse(row.sent_choices) as SentChoices) : null,
    declinedAt: row.declined_at,
    declineReason: row.decline_reason,
    withdrawnAt: row.withdrawn_at,
    customerUrl: customerUrlOf(ctx, row.token_enc),
  };
}

/** A quote row of the workspace by id, or `quote_not_found` (another workspace's quote is as missing as none). */
export async function findQuoteRow(
  db: Db,
  { workspaceId, quoteId }: { workspaceId: string; quoteId: string },
): Promise<Selectable<QuoteTable>> {
  const row = await db
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', quoteId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('quote_not_found', `No quote ${quoteId} in this workspace`);
  return row;
}

export async function loadQuoteView(ctx: DomainContext, db: Db, row: Selectable<QuoteTable>): Promise<QuoteView> {
  return viewOf(ctx, row, await loadContent(db, row.id), await timeZoneOf(db, row.workspace_id));
}

/** Line edits, title, terms…: only a draft changes (a sent quote is revised instead). */
export function requireDraft(row: Pick<QuoteTable, 'status' | 'number' | 'revision'>): void {
  if (row.status !== 'draft') {
    throw new AppError(
      'quote_not_editable',
      `${row.number ?? 'This quote'}${Number(row.revision) > 1 ? ` rev ${row.revision}` : ''} is ${row.status}: ` +
        'a sent quote is never changed; revise it to make a new draft',
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
  const content = await loadContent(trx, quoteId);
  const stored = content.lines;
  const totals = computeTotals(stored, JSON.parse(quote.tax_rates) as TaxRate[], content.sections);
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
  return viewOf(ctx, row, { sections: content.sections, lines }, await timeZoneOf(trx, row.workspace_id));
}
