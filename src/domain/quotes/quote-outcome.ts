import type { Transaction } from 'kysely';
import type { QuoteOutcomeTable, Schema } from '../../storage/schema.js';
import { todayIn } from './quote-view.js';

/** What became of a sent quote, as the report counts it (docs/quotes.md, "What counts"). */
export type QuoteOutcome = 'open' | 'accepted' | 'declined' | 'withdrawn';

/** Calendar days from one `YYYY-MM-DD` to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Rewrites a quote's row in `quote_outcomes` from its revisions, in the transaction of the change (send, accept,
 * decline, withdraw): the quote is counted once, at its first send, with its latest sent revision's currency and
 * total and that revision's answer. The first send's day (in the workspace's time zone then), the lead's source and
 * campaign are kept as first written, so a later change of time zone never moves a quote to another month. The
 * triggers of migration 0047 keep `quote_report_months` in step in the same statement.
 */
export async function refreshQuoteOutcome(trx: Transaction<Schema>, chainId: string): Promise<void> {
  const sent = await trx
    .selectFrom('quotes')
    .select(['id', 'workspace_id', 'lead_id', 'status', 'currency', 'total', 'sent_at', 'accepted_at', 'declined_at'])
    .where('chain_id', '=', chainId)
    .where('sent_at', 'is not', null)
    .orderBy('revision')
    .execute();
  const existing = await trx
    .selectFrom('quote_outcomes')
    .selectAll()
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  const latest = sent.at(-1);
  if (!latest) {
    if (existing) await trx.deleteFrom('quote_outcomes').where('chain_id', '=', chainId).execute();
    return;
  }
  const firstSentAt = sent.map((r) => r.sent_at!).sort()[0]!;
  const workspace = await trx
    .selectFrom('workspaces')
    .select('time_zone')
    .where('id', '=', latest.workspace_id)
    .executeTakeFirstOrThrow();
  const zone = workspace.time_zone ?? 'UTC';
  const lead = existing
    ? { source_id: existing.source_id, utm_source: existing.utm_source, utm_campaign: existing.utm_campaign }
    : await trx
        .selectFrom('leads')
        .select(['source_id', 'utm_source', 'utm_campaign'])
        .where('id', '=', latest.lead_id)
        .executeTakeFirstOrThrow();
  const firstDay = existing?.first_sent_day ?? todayIn(zone, new Date(firstSentAt));
  const outcome: QuoteOutcome =
    latest.status === 'accepted' || latest.status === 'declined' || latest.status === 'withdrawn'
      ? latest.status
      : 'open';
  const answeredAt = outcome === 'accepted' ? latest.accepted_at : outcome === 'declined' ? latest.declined_at : null;
  const answerDays =
    answeredAt === null
      ? null
      : existing?.answered_at === answeredAt
        ? existing.answer_days
        : daysBetween(firstDay, todayIn(zone, new Date(answeredAt)));
  const row: QuoteOutcomeTable = {
    chain_id: chainId,
    workspace_id: latest.workspace_id,
    lead_id: latest.lead_id,
    quote_id: latest.id,
    source_id: lead.source_id,
    utm_source: lead.utm_source ?? null,
    utm_campaign: lead.utm_campaign ?? null,
    currency: latest.currency,
    value: Number(latest.total),
    first_sent_at: firstSentAt,
    first_sent_day: firstDay,
    outcome,
    answered_at: answeredAt,
    answer_days: answerDays === null ? null : Number(answerDays),
  };
  if (!existing) {
    await trx.insertInto('quote_outcomes').values(row).execute();
    return;
  }
  // PostgreSQL answers bigint columns as strings: compare numbers as numbers.
  const norm = (v: unknown) =>
    v === null || v === undefined ? null : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  const same = (Object.keys(row) as Array<keyof QuoteOutcomeTable>).every((k) => norm(existing[k]) === norm(row[k]));
  if (!same) await trx.updateTable('quote_outcomes').set(row).where('chain_id', '=', chainId).execute();
}
