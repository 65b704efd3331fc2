import type { WorkspaceVerbArgs } from '../context.js';
import { todayIn } from '../quotes/quote-view.js';
import { monthEnd, monthsOf, resolveRange, type ReportPeriod, type ReportRange } from './report-period.js';

/**
 * The figures of a report, for the whole period and for each source, campaign and month (docs/quotes.md, "What wins").
 */
export interface ReportFigures {
  sent: number;
  accepted: number;
  declined: number;
  /** Sent and neither accepted nor declined: still open, expired or withdrawn. */
  unanswered: number;
  /** Whole percents (33 for 1 of 3), null when there is nothing to divide by. */
  winRate: { ofAnswered: number | null; ofSent: number | null };
  /** In the workspace's currency, in its smallest unit: quotes made in another currency are in `otherCurrencies`. */
  valueSent: number;
  valueWon: number;
  /** What was paid on the invoices of these quotes (the payments recorded on every invoice of each quote's chain). */
  valuePaid: number;
  /**
   * Calendar days from the first send to the answer, the median of the answered quotes; null when none was answered.
   */
  medianDaysToAnswer: number | null;
}

export interface QuoteReport extends ReportFigures {
  from: string;
  to: string;
  /** The workspace's currency, which the values are in. */
  currency: string;
  bySource: Array<{ sourceId: string; name: string } & ReportFigures>;
  byCampaign: Array<{ utmSource: string | null; utmCampaign: string | null } & ReportFigures>;
  /** Every month of the period, for the chart of the win rate. */
  byMonth: Array<{ month: string } & ReportFigures>;
  /** Quotes made in another currency (the workspace's changed): counted above, their values only here. */
  otherCurrencies: Array<{ currency: string; sent: number; valueSent: number; valueWon: number }>;
}

/** One group of quotes of the same month, source, campaign, currency and days to an answer (-1: none). */
interface Counted {
  month: string;
  source_id: string;
  utm_source: string;
  utm_campaign: string;
  currency: string;
  answer_days: number;
  sent: number;
  accepted: number;
  declined: number;
  value_sent: number;
  value_won: number;
}

class Tally {
  sent = 0;
  accepted = 0;
  declined = 0;
  valueSent = 0;
  valueWon = 0;
  valuePaid = 0;
  /** Answered quotes by their days to an answer. */
  days = new Map<number, number>();

  add(row: Counted, inCurrency: boolean) {
    this.sent += row.sent;
    this.accepted += row.accepted;
    this.declined += row.declined;
    if (inCurrency) {
      this.valueSent += row.value_sent;
      this.valueWon += row.value_won;
    }
    const answered = row.accepted + row.declined;
    if (row.answer_days >= 0 && answered > 0)
      this.days.set(row.answer_days, (this.days.get(row.answer_days) ?? 0) + answered);
  }

  figures(): ReportFigures {
    const answered = this.accepted + this.declined;
    return {
      sent: this.sent,
      accepted: this.accepted,
      declined: this.declined,
      unanswered: this.sent - answered,
      winRate: { ofAnswered: percent(this.accepted, answered), ofSent: percent(this.accepted, this.sent) },
      valueSent: this.valueSent,
      valueWon: this.valueWon,
      valuePaid: this.valuePaid,
      medianDaysToAnswer: median(this.days),
    };
  }
}

/** A whole percent, rounded half up (both are counts, so never negative); null over nothing. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.floor((200 * part + whole) / (2 * whole));
}

/** The median of a histogram of whole days: the middle value, or the mean of the two middle ones. */
export function median(histogram: Map<number, number>): number | null {
  const total = [...histogram.values()].reduce((a, n) => a + n, 0);
  if (total === 0) return null;
  const at = (index: number) => {
    let seen = 0;
    for (const days of [...histogram.keys()].sort((a, b) => a - b)) {
      seen += histogram.get(days)!;
      if (index < seen) return days;
    }
    return 0;
  };
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;
}

/**
 * The quotes of a range, grouped: whole months from `quote_report_months` (kept by triggers; a few rows a month),
 * the days of a month the range covers only in part from `quote_outcomes` (a row per quote). So a report of whole
 * months, which every preset is, reads no quote at all (docs/performance.md, "The report").
 */
export function reportRowsQueries(ctx: WorkspaceVerbArgs<unknown>['ctx'], range: ReportRange) {
  const months = monthsOf(range);
  const whole = months.filter((m) => range.from <= `${m}-01` && monthEnd(`${m}-01`) <= range.to);
  const partial = months.filter((m) => !whole.includes(m));
  const wholeQuery =
    whole.length === 0
      ? undefined
      : ctx.store.db
          .selectFrom('quote_report_months')
          .select([
            'month',
            'source_id',
            'utm_source',
            'utm_campaign',
            'currency',
            'answer_days',
            'sent',
            'accepted',
            'declined',
            'value_sent',
            'value_won',
          ])
          .where('workspace_id', '=', ctx.workspaceId)
          .where('month', '>=', whole[0]!)
          .where('month', '<=', whole.at(-1)!);
  const partialQueries = partial.map((m) =>
    ctx.store.db
      .selectFrom('quote_outcomes')
      .select([
        'first_sent_day',
        'source_id',
        'utm_source',
        'utm_campaign',
        'currency',
        'outcome',
        'answer_days',
        'value',
      ])
      .where('workspace_id', '=', ctx.workspaceId)
      .where('first_sent_day', '>=', range.from > `${m}-01` ? range.from : `${m}-01`)
      .where('first_sent_day', '<=', range.to < monthEnd(`${m}-01`) ? range.to : monthEnd(`${m}-01`)),
  );
  return { wholeQuery, partialQueries };
}

/**
 * What was paid on the invoices of the range's quotes, grouped as the report groups: the `paid` each invoice keeps
 * (its payments; credit notes take no payment), by its quote chain's first send day, source, campaign and currency.
 * Read from the range's `quote_outcomes` rows and each chain's invoices (the index `invoices_chain`).
 */
export function paidRowsQuery(ctx: WorkspaceVerbArgs<unknown>['ctx'], range: ReportRange) {
  return ctx.store.db
    .selectFrom('quote_outcomes as o')
    .innerJoin('invoices as i', 'i.quote_chain_id', 'o.chain_id')
    .select((eb) => [
      'o.first_sent_day',
      'o.source_id',
      'o.utm_source',
      'o.utm_campaign',
      'i.currency',
      eb.fn.sum<number>('i.paid').as('paid'),
    ])
    .where('o.workspace_id', '=', ctx.workspaceId)
    .where('o.first_sent_day', '>=', range.from)
    .where('o.first_sent_day', '<=', range.to)
    .where('o.outcome', '=', 'accepted')
    .where('i.paid', '>', 0)
    .groupBy(['o.first_sent_day', 'o.source_id', 'o.utm_source', 'o.utm_campaign', 'i.currency']);
}

async function countedRows(ctx: WorkspaceVerbArgs<unknown>['ctx'], range: ReportRange): Promise<Counted[]> {
  const { wholeQuery, partialQueries } = reportRowsQueries(ctx, range);
  const [whole, ...partial] = await Promise.all([
    wholeQuery?.execute() ?? [],
    ...partialQueries.map((q) => q.execute()),
  ]);
  const rows: Counted[] = whole.map((r) => ({
    month: r.month,
    source_id: r.source_id,
    utm_source: r.utm_source,
    utm_campaign: r.utm_campaign,
    currency: r.currency,
    answer_days: Number(r.answer_days),
    sent: Number(r.sent),
    accepted: Number(r.accepted),
    declined: Number(r.declined),
    value_sent: Number(r.value_sent),
    value_won: Number(r.value_won),
  }));
  for (const r of partial.flat()) {
    const value = Number(r.value);
    rows.push({
      month: r.first_sent_day.slice(0, 7),
      source_id: r.source_id,
      utm_source: r.utm_source ?? '',
      utm_campaign: r.utm_campaign ?? '',
      currency: r.currency,
      answer_days: r.answer_days === null ? -1 : Number(r.answer_days),
      sent: 1,
      accepted: r.outcome === 'accepted' ? 1 : 0,
      declined: r.outcome === 'declined' ? 1 : 0,
      value_sent: value,
      value_won: r.outcome === 'accepted' ? value : 0,
    });
  }
  return rows;
}

const byCount =
  <T extends { sent: number }>(label: (row: T) => string) =>
  (a: T, b: T) =>
    b.sent - a.sent || label(a).localeCompare(label(b));

/**
 * What wins (docs/quotes.md, "What wins"): the workspace's quotes first sent in a period (this month, the last 3
 * months by default, 12 months, or `from`–`to`, days in the workspace's time zone), counted once each: sent,
 * accepted, declined, unanswered, both win rates, value sent and won, the median days to an answer, and the same by
 * lead source, by campaign and by month. The Quotes screen's Report and `leadscan quotes report` show it.
 */
export async function quoteReport({
  ctx,
  input,
}: WorkspaceVerbArgs<{ period?: ReportPeriod; from?: string; to?: string }>): Promise<QuoteReport> {
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['time_zone', 'currency'])
    .where('id', '=', ctx.workspaceId)
    .executeTakeFirstOrThrow();
  const currency = workspace.currency ?? 'USD';
  const range = resolveRange(input, todayIn(workspace.time_zone ?? 'UTC', ctx.clock.now()));
  const [rows, paidRows] = await Promise.all([countedRows(ctx, range), paidRowsQuery(ctx, range).execute()]);
  const total = new Tally();
  const sources = new Map<string, Tally>();
  const campaigns = new Map<string, Tally>();
  const months = new Map<string, Tally>(monthsOf(range).map((m) => [m, new Tally()]));
  const others = new Map<string, { currency: string; sent: number; valueSent: number; valueWon: number }>();
  const tally = (map: Map<string, Tally>, key: string) => {
    let t = map.get(key);
    if (!t) map.set(key, (t = new Tally()));
    return t;
  };
  for (const row of rows) {
    const inCurrency = row.currency === currency;
    total.add(row, inCurrency);
    tally(sources, row.source_id).add(row, inCurrency);
    tally(campaigns, JSON.stringify([row.utm_source, row.utm_campaign])).add(row, inCurrency);
    tally(months, row.month).add(row, inCurrency);
    if (!inCurrency) {
      const other = others.get(row.currency) ?? { currency: row.currency, sent: 0, valueSent: 0, valueWon: 0 };
      other.sent += row.sent;
      other.valueSent += row.value_sent;
      other.valueWon += row.value_won;
      others.set(row.currency, other);
    }
  }
  for (const row of paidRows) {
    if (row.currency !== currency) continue;
    const paid = Number(row.paid);
    const campaign = JSON.stringify([row.utm_source ?? '', row.utm_campaign ?? '']);
    for (const t of [
      total,
      tally(sources, row.source_id),
      tally(campaigns, campaign),
      tally(months, row.first_sent_day.slice(0, 7)),
    ])
      t.valuePaid += paid;
  }
  const names = new Map(
    (
      await ctx.store.db
        .selectFrom('lead_sources')
        .select(['id', 'name'])
        .where('workspace_id', '=', ctx.workspaceId)
        .execute()
    ).map((s) => [s.id, s.name]),
  );
  const orNull = (text: string) => (text === '' ? null : text);
  return {
    from: range.from,
    to: range.to,
    currency,
    ...total.figures(),
    bySource: [...sources]
      .map(([sourceId, t]) => ({ sourceId, name: names.get(sourceId) ?? sourceId, ...t.figures() }))
      .sort(byCount((s) => s.name)),
    byCampaign: [...campaigns]
      .map(([key, t]) => {
        const [utmSource, utmCampaign] = JSON.parse(key) as [string, string];
        return { utmSource: orNull(utmSource), utmCampaign: orNull(utmCampaign), ...t.figures() };
      })
      // Leads from no campaign last among equals: `~` sorts after letters and digits.
      .sort(byCount((c) => `${c.utmCampaign ?? '~'} ${c.utmSource ?? '~'}`)),
    byMonth: [...months].map(([month, t]) => ({ month, ...t.figures() })),
    otherCurrencies: [...others.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}
