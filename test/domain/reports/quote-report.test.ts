import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inWorkspace } from '../../../src/domain/context.js';
import { createInvoiceFromQuote } from '../../../src/domain/invoices/create-invoice-from-quote.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { quoteReport, type QuoteReport, type ReportFigures } from '../../../src/domain/reports/quote-report.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { reportWorkspace, threeMonthsOfQuotes, ZONE, type ReportWorld } from './report-fixtures.js';

/** The instant a day starts in the workspace's zone (independent of the code under test: offsets from Intl). */
function dayStart(day: string): string {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const offsetAt = (ms: number) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' })
      .formatToParts(new Date(ms))
      .find((p) => p.type === 'timeZoneName')!.value;
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(parts);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  return new Date(guess - offsetAt(guess - offsetAt(guess))).toISOString();
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

interface PlainRow {
  group_key: string | null;
  sent: number | string;
  accepted: number | string;
  declined: number | string;
  value_sent: number | string | null;
  value_won: number | string | null;
  value_paid: number | string | null;
}

describeEachBackend('the report of what wins', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let rw: ReportWorld;

  beforeAll(async () => {
    clock = new TestClock(Date.parse('2026-07-01T12:00:00Z'));
    world = await createWorld(backend, { clock });
    rw = await reportWorkspace(world, 'Bright Floors');
    await threeMonthsOfQuotes(world, clock, rw);
    // Invoices of accepted quotes, and payments on them (clock: 20 October): Ada's 1,000.00 paid in full, 250.00 of
    // Fay's 1,300.00, 50.00 of the euro quote (not in the values), 100.00 of July's (outside the default period).
    const wctx = inWorkspace(world.ctx, rw.seeded.workspaceId);
    const accepted = await world.store.db
      .selectFrom('quotes')
      .select(['id', 'total', 'currency'])
      .where('workspace_id', '=', rw.seeded.workspaceId)
      .where('status', '=', 'accepted')
      .execute();
    const pay = async (total: number, currency: string, amount: string) => {
      const quote = accepted.find((q) => Number(q.total) === total && q.currency === currency)!;
      const invoice = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: quote.id, kind: 'invoice' } });
      await sendInvoice({ ctx: wctx, input: { invoiceId: invoice.id, by: { userId: null } } });
      await recordPayment({
        ctx: wctx,
        input: { invoiceId: invoice.id, payment: { amount, date: '2026-10-20', method: 'bank_transfer' } },
      });
    };
    await pay(100_000, 'CAD', '1000.00');
    await pay(130_000, 'CAD', '250.00');
    await pay(30_000, 'EUR', '50.00');
    await pay(45_000, 'CAD', '100.00');
  }, 120_000);
  afterAll(async () => world.close());

  /**
   * The same figures counted by plain SQL over the quotes and leads themselves: each quote (chain) once, at its first
   * send, with its latest sent revision's status and total; the period as instants of the zone's days.
   */
  async function plain(from: string, to: string, group: 'all' | 'source' | 'campaign', currency = 'CAD') {
    const groupKey =
      group === 'all'
        ? sql`'all'`
        : group === 'source'
          ? sql`l.source_id`
          : sql`coalesce(l.utm_source, '') || '/' || coalesce(l.utm_campaign, '')`;
    const { rows } = await sql<PlainRow>`
      select ${groupKey} as group_key, count(*) as sent,
        sum(case when q.status = 'accepted' then 1 else 0 end) as accepted,
        sum(case when q.status = 'declined' then 1 else 0 end) as declined,
        sum(case when q.currency = ${currency} then q.total else 0 end) as value_sent,
        sum(case when q.currency = ${currency} and q.status = 'accepted' then q.total else 0 end) as value_won,
        sum(case when q.currency = ${currency} then (
          select coalesce(sum(p.amount), 0) from invoice_payments p join invoices i on i.id = p.invoice_id
          where i.quote_chain_id = q.chain_id) else 0 end) as value_paid
      from quotes q join leads l on l.id = q.lead_id
      where q.workspace_id = ${rw.seeded.workspaceId}
        and q.revision = (select max(r.revision) from quotes r where r.chain_id = q.chain_id and r.sent_at is not null)
        and (select min(f.sent_at) from quotes f where f.chain_id = q.chain_id) >= ${dayStart(from)}
        and (select min(f.sent_at) from quotes f where f.chain_id = q.chain_id) < ${dayStart(nextDay(to))}
      group by 1 order by 1`.execute(world.store.db);
    return new Map(
      rows.map((r) => [
        r.group_key,
        {
          sent: Number(r.sent),
          accepted: Number(r.accepted),
          declined: Number(r.declined),
          valueSent: Number(r.value_sent ?? 0),
          valueWon: Number(r.value_won ?? 0),
          valuePaid: Number(r.value_paid ?? 0),
        },
      ]),
    );
  }

  /** Calendar days from first send to answer in the zone, of the period's answered quotes, for the medians. */
  async function answerDays(from: string, to: string) {
    const { rows } = await sql<{ source_id: string; campaign: string; first: string; answered: string }>`
      select l.source_id, coalesce(l.utm_source, '') || '/' || coalesce(l.utm_campaign, '') as campaign,
        (select min(f.sent_at) from quotes f where f.chain_id = q.chain_id) as first,
        coalesce(q.accepted_at, q.declined_at) as answered
      from quotes q join leads l on l.id = q.lead_id
      where q.workspace_id = ${rw.seeded.workspaceId} and q.status in ('accepted', 'declined')`.execute(world.store.db);
    const day = (iso: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
        new Date(iso),
      );
    return rows
      .filter((r) => day(r.first) >= from && day(r.first) <= to)
      .map((r) => ({
        ...r,
        days: (Date.parse(`${day(r.answered)}T00:00:00Z`) - Date.parse(`${day(r.first)}T00:00:00Z`)) / 86_400_000,
      }));
  }

  const medianOf = (values: number[]) => {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.floor(sorted.length / 2)]!) / 2;
  };
  const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((100 * part) / whole));

  function expectFigures(
    figures: ReportFigures,
    counted: {
      sent: number;
      accepted: number;
      declined: number;
      valueSent: number;
      valueWon: number;
      valuePaid: number;
    },
    days: number[],
  ) {
    const answered = counted.accepted + counted.declined;
    expect(figures).toEqual({
      ...counted,
      unanswered: counted.sent - answered,
      winRate: { ofAnswered: rate(counted.accepted, answered), ofSent: rate(counted.accepted, counted.sent) },
      medianDaysToAnswer: medianOf(days),
    });
  }

  async function expectSameAsPlain(report: QuoteReport) {
    const { from, to } = report;
    const all = (await plain(from, to, 'all')).get('all')!;
    const days = await answerDays(from, to);
    const {
      bySource: _s,
      byCampaign: _c,
      byMonth: _m,
      otherCurrencies: _o,
      from: _f,
      to: _t,
      currency,
      ...total
    } = report;
    expect(currency).toBe('CAD');
    expectFigures(
      total,
      all,
      days.map((d) => d.days),
    );
    const bySource = await plain(from, to, 'source');
    expect(report.bySource.map((s) => s.sourceId).sort()).toEqual([...bySource.keys()].sort());
    for (const { sourceId, name, ...figures } of report.bySource) {
      expect(name).toBe(rw.sources.find((s) => s.id === sourceId)!.name);
      expectFigures(
        figures,
        bySource.get(sourceId)!,
        days.filter((d) => d.source_id === sourceId).map((d) => d.days),
      );
    }
    const byCampaign = await plain(from, to, 'campaign');
    const campaignKey = (c: { utmSource: string | null; utmCampaign: string | null }) =>
      `${c.utmSource ?? ''}/${c.utmCampaign ?? ''}`;
    expect(report.byCampaign.map(campaignKey).sort()).toEqual([...byCampaign.keys()].sort());
    for (const { utmSource, utmCampaign, ...figures } of report.byCampaign) {
      const key = campaignKey({ utmSource, utmCampaign });
      expectFigures(
        figures,
        byCampaign.get(key)!,
        days.filter((d) => d.campaign === key).map((d) => d.days),
      );
    }
    // Quotes in another currency count everywhere; their value only in otherCurrencies.
    const euro = (await plain(from, to, 'all', 'EUR')).get('all')!;
    expect(report.otherCurrencies).toEqual(
      euro.valueSent === 0 ? [] : [{ currency: 'EUR', sent: 1, valueSent: euro.valueSent, valueWon: euro.valueWon }],
    );
  }

  it('counts the last 3 months by default, equal to a plain count of the quotes, by source and campaign', async () => {
    const report = await quoteReport({ ctx: rw.ctx, input: {} });
    expect([report.from, report.to]).toEqual(['2026-08-01', '2026-10-31']);
    // By hand: 10 quotes first sent in August–October (July's and the deleted lead's are not; a draft is no quote).
    expect(report).toMatchObject({ sent: 10, accepted: 5, declined: 2, unanswered: 3 });
    expect(report.winRate).toEqual({ ofAnswered: 71, ofSent: 50 });
    // Values in CAD: 1000 + 2000 + 1500 + 700 + 800 + 1300 + 900 + 400 + 600; won: 1000 + 700 + 1300 + 400.
    expect(report.valueSent).toBe(920_000);
    expect(report.valueWon).toBe(340_000);
    expect(report.valuePaid).toBe(125_000);
    expect(report.otherCurrencies).toEqual([{ currency: 'EUR', sent: 1, valueSent: 30_000, valueWon: 30_000 }]);
    // Days to an answer: 2, 0, 7, 5, 3, 1, 1 → 2.
    expect(report.medianDaysToAnswer).toBe(2);
    expect(report.bySource).toHaveLength(3);
    expect(report.byCampaign.map((c) => [c.utmSource, c.utmCampaign])).toEqual([
      ['google', 'spring'],
      ['facebook', 'fall'],
      [null, null],
    ]);
    expect(report.byMonth.map((m) => [m.month, m.sent, m.accepted, m.declined])).toEqual([
      ['2026-08', 3, 1, 1],
      ['2026-09', 3, 2, 0],
      ['2026-10', 4, 2, 1],
    ]);
    await expectSameAsPlain(report);
  });

  it('counts this month, 12 months and a range that cuts months in part the same way', async () => {
    const month = await quoteReport({ ctx: rw.ctx, input: { period: 'month' } });
    expect([month.from, month.to, month.sent]).toEqual(['2026-10-01', '2026-10-31', 4]);
    await expectSameAsPlain(month);
    const year = await quoteReport({ ctx: rw.ctx, input: { period: '12-months' } });
    expect([year.from, year.to, year.sent, year.byMonth.length]).toEqual(['2025-11-01', '2026-10-31', 11, 12]);
    await expectSameAsPlain(year);
    // From a day in August to a day in October: the whole of September, parts of the others.
    const range = await quoteReport({ ctx: rw.ctx, input: { from: '2026-08-10', to: '2026-10-05' } });
    expect(range.sent).toBe(7);
    await expectSameAsPlain(range);
    // 31 August in Toronto: the quote sent at 23:30 there is in August, not in September as in UTC.
    const lastOfAugust = await quoteReport({ ctx: rw.ctx, input: { from: '2026-08-31', to: '2026-08-31' } });
    expect(lastOfAugust.sent).toBe(1);
    expect((await quoteReport({ ctx: rw.ctx, input: { from: '2026-09-01', to: '2026-09-01' } })).sent).toBe(0);
  });

  it('says an empty period is empty: zeros, no rates, no median, no groups', async () => {
    const empty = await quoteReport({ ctx: rw.ctx, input: { from: '2026-01-01', to: '2026-03-31' } });
    expect(empty).toMatchObject({
      sent: 0,
      accepted: 0,
      declined: 0,
      unanswered: 0,
      winRate: { ofAnswered: null, ofSent: null },
      valueSent: 0,
      valueWon: 0,
      medianDaysToAnswer: null,
      bySource: [],
      byCampaign: [],
      otherCurrencies: [],
    });
    expect(empty.byMonth.map((m) => m.sent)).toEqual([0, 0, 0]);
  });

  it('refuses a range that ends before it starts, a day that does not exist, and an end without a start', async () => {
    for (const input of [
      { from: '2026-10-05', to: '2026-10-01' },
      { from: '2026-02-30' },
      { to: '2026-10-01' },
      { from: '2000-01-01', to: '2026-10-01' },
    ]) {
      await expect(quoteReport({ ctx: rw.ctx, input })).rejects.toMatchObject({ code: 'invalid_fields' });
    }
  });

  it('keeps the monthly counts equal to the quotes whatever removes them: a source deleted with its leads', async () => {
    const before = await quoteReport({ ctx: rw.ctx, input: { period: '12-months' } });
    const homeShow = rw.sources[2]!.id;
    const gone = before.bySource.find((s) => s.sourceId === homeShow)!.sent;
    await world.store.writer.write(async (trx) => {
      const leads = trx.selectFrom('leads').select('id').where('source_id', '=', homeShow);
      await trx.deleteFrom('stage_history').where('lead_id', 'in', leads).execute();
      await trx.deleteFrom('leads').where('source_id', '=', homeShow).execute();
    });
    const after = await quoteReport({ ctx: rw.ctx, input: { period: '12-months' } });
    expect(after.sent).toBe(before.sent - gone);
    expect(after.bySource.map((s) => s.sourceId)).not.toContain(homeShow);
    await expectSameAsPlain(after);
    const rows = await world.store.db
      .selectFrom('quote_report_months')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source_id', '=', homeShow)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(0);
  });
});
