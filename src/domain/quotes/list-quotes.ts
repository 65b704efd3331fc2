import { sql } from 'kysely';
import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { LIST_STATUSES, statusOf, timeZoneOf, todayIn, type QuoteStatus } from './quote-view.js';

export interface QuoteSummary {
  id: string;
  number: string | null;
  revision: number;
  status: QuoteStatus;
  leadId: string;
  customerName: string | null;
  title: string | null;
  currency: string;
  total: number;
  createdAt: string;
  sentAt: string | null;
  validUntil: string;
  viewedAt: string | null;
  acceptedAt: string | null;
  declinedAt: string | null;
}

export type ListStatus = (typeof LIST_STATUSES)[number];

export function checkListStatus(value: string): ListStatus {
  const status = value.trim().toLowerCase();
  if (!(LIST_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('invalid_fields', `The status is one of ${LIST_STATUSES.join(', ')}`, [
      { field: 'status', code: 'invalid', message: `Choose ${LIST_STATUSES.join(', ')}` },
    ]);
  }
  return status as ListStatus;
}

type ListInput = {
  workspaceId: string;
  status?: ListStatus;
  leadId?: string;
  scanId?: string;
  limit?: number;
  offset?: number;
};

/**
 * The list's query for `today` (the workspace's date), kept apart so a test can pin its plan (each filter is read
 * from an index in the screen's order: docs/performance.md, "Quotes at scale").
 */
export function quoteListQuery(ctx: DomainContext, input: ListInput, today: string) {
  let query = ctx.store.db
    .selectFrom('quotes as q')
    .select([
      'q.id',
      'q.number',
      'q.revision',
      'q.status',
      'q.lead_id',
      'q.customer_name',
      'q.title',
      'q.currency',
      'q.total',
      'q.created_at',
      'q.sent_at',
      'q.valid_until',
      'q.viewed_at',
      'q.accepted_at',
      'q.declined_at',
    ])
    .where('q.workspace_id', '=', input.workspaceId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('quotes as later')
            .select('later.id')
            .whereRef('later.chain_id', '=', 'q.chain_id')
            .whereRef('later.revision', '>', 'q.revision'),
        ),
      ),
    );
  if (input.leadId !== undefined) query = query.where('q.lead_id', '=', input.leadId);
  if (input.scanId !== undefined) {
    // Ids hold only [a-z0-9_]; `_` is escaped so it matches itself.
    const pattern = `%"scanId":"${input.scanId.replaceAll('\\', '\\\\').replaceAll('_', '\\_').replaceAll('%', '\\%')}"%`;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('quote_lines as l')
          .select('l.id')
          .whereRef('l.quote_id', '=', 'q.id')
          .where(sql<boolean>`l.source like ${pattern} escape '\\'`),
      ),
    );
  }
  const status = input.status;
  // Written as the partial index's own condition (migration 0041): a planner uses that index only for a query that
  // states it, and SQLite only when it is spelled out rather than bound.
  if (status === 'expired')
    query = query.where(sql<boolean>`q.status in ('sent', 'viewed')`).where('q.valid_until', '<', today);
  else if (status === 'sent' || status === 'viewed')
    query = query.where('q.status', '=', status).where('q.valid_until', '>=', today);
  else if (status !== undefined) query = query.where('q.status', '=', status);
  return query
    .orderBy('q.created_at', 'desc')
    .orderBy('q.id', 'desc')
    .limit(input.limit ?? 1000)
    .offset(input.offset ?? 0);
}

/**
 * A workspace's quotes, newest first, one row per quote (its latest revision): the Quotes screen, `quotes list`, a
 * lead's page (`leadId`) and a scan's page (`scanId`: quotes with a line priced from it). `expired` is a sent or
 * viewed quote past its valid-until day in the workspace's time zone, and `sent`/`viewed` leave those out.
 */
export async function listQuotes({ ctx, input }: VerbArgs<ListInput>): Promise<QuoteSummary[]> {
  const timeZone = await timeZoneOf(ctx.store.db, input.workspaceId);
  const now = ctx.clock.now();
  const rows = await quoteListQuery(ctx, input, todayIn(timeZone, now)).execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    revision: Number(r.revision),
    status: statusOf(r, timeZone, now),
    leadId: r.lead_id,
    customerName: r.customer_name,
    title: r.title,
    currency: r.currency,
    total: Number(r.total),
    createdAt: r.created_at,
    sentAt: r.sent_at,
    validUntil: r.valid_until,
    viewedAt: r.viewed_at,
    acceptedAt: r.accepted_at,
    declinedAt: r.declined_at,
  }));
}
