import { sql } from 'kysely';
import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { dayStartIn } from '../zoned-time.js';
import { addDays, LIST_STATUSES, statusOf, todayIn, type QuoteStatus } from './quote-view.js';

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

/**
 * `needs-follow-up`: sent or viewed, still valid, and sent the follow-up days ago or more (docs/quotes.md,
 * "Follow-ups").
 */
export const LIST_FILTERS = [...LIST_STATUSES, 'needs-follow-up'] as const;

export type ListStatus = (typeof LIST_FILTERS)[number];

export function checkListStatus(value: string): ListStatus {
  const status = value.trim().toLowerCase();
  if (!(LIST_FILTERS as readonly string[]).includes(status)) {
    throw new AppError('invalid_fields', `The status is one of ${LIST_FILTERS.join(', ')}`, [
      { field: 'status', code: 'invalid', message: `Choose ${LIST_FILTERS.join(', ')}` },
    ]);
  }
  return status as ListStatus;
}

/**
 * The instant before which a quote's current revision must have been sent to need a follow-up today: a quote sent on
 * day S needs one from day S + `days` (in the workspace's time zone), so it was sent before the start of today −
 * `days` + 1. The follow-up job reminds the sender by the same rule.
 */
export function followUpCutoff(days: number, timeZone: string, now: Date): string {
  return dayStartIn(addDays(todayIn(timeZone, now), 1 - days), timeZone);
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
export function quoteListQuery(ctx: DomainContext, input: ListInput, today: string, followUpBefore = '') {
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
    const escaped = input.scanId.replaceAll('\\', '\\\\').replaceAll('_', '\\_').replaceAll('%', '\\%');
    const pattern = `%"scanId":"${escaped}"%`;
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
  if (status === 'needs-follow-up')
    query = query
      .where(sql<boolean>`q.status in ('sent', 'viewed')`)
      .where('q.valid_until', '>=', today)
      .where('q.sent_at', '<', followUpBefore);
  else if (status === 'expired')
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
 * viewed quote past its valid-until day in the workspace's time zone, and `sent`/`viewed` leave those out;
 * `needs-follow-up` the open ones sent the workspace's follow-up days ago or more (none when follow-ups are off).
 */
export async function listQuotes({ ctx, input }: VerbArgs<ListInput>): Promise<QuoteSummary[]> {
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['time_zone', 'follow_up_days'])
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  const timeZone = workspace?.time_zone ?? 'UTC';
  const now = ctx.clock.now();
  const followUpDays = workspace?.follow_up_days ?? null;
  // Follow-ups off: no quote needs one.
  if (input.status === 'needs-follow-up' && followUpDays === null) return [];
  const followUpBefore = followUpDays === null ? '' : followUpCutoff(Number(followUpDays), timeZone, now);
  const rows = await quoteListQuery(ctx, input, todayIn(timeZone, now), followUpBefore).execute();
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
