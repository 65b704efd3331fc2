/**
 * Quotes at scale (`BENCH_ONLY=quotes`, driven by bench/run.ts): one workspace with BENCH_QUOTE_LEADS leads
 * (1,000,000 by default) and BENCH_QUOTES quotes (100,000 by default; one in twenty with a second revision, three
 * lines each, statuses spread as a busy contractor's are), on SQLite and on PostgreSQL when a server is reachable,
 * in this process through the domain verbs the screens call, each timed over BENCH_RUNS runs (median and p95):
 * the Quotes screen's first page (200 rows) and its status filters, the customer's page of a sent quote (the verb,
 * and the page itself through the app, `GET /q/{token}`), a line of a 300-line draft changed (recalculated and saved,
 * the whole quote answered), a person's Send of a 3-line and of a 300-line draft, and the Report: 12 months by
 * source and campaign (the leads come from three sources and four campaigns), a range that cuts two months, and
 * its baseline, the same figures counted by plain SQL over the quotes and leads themselves.
 *
 *   BENCH_ONLY=quotes BENCH_QUOTE_LEADS=1000000 BENCH_QUOTES=100000 BENCH_DATABASE_URL=postgres://… npm run bench
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createPipeline } from '../src/domain/pipelines/create-pipeline.js';
import { addQuoteLine } from '../src/domain/quotes/add-quote-line.js';
import { buildApp } from '../src/app.js';
import { copyQuote } from '../src/domain/quotes/copy-quote.js';
import { createQuote } from '../src/domain/quotes/create-quote.js';
import { openQuoteByToken } from '../src/domain/quotes/customer-quote.js';
import { listQuotes, quoteListQuery, type ListStatus } from '../src/domain/quotes/list-quotes.js';
import type { DomainContext } from '../src/domain/context.js';
import { sendQuote } from '../src/domain/quotes/send-quote.js';
import { updateQuoteLine } from '../src/domain/quotes/update-quote-line.js';
import { createSource } from '../src/domain/sources/create-source.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { openRuntime } from '../src/runtime.js';
import type { LeadTable, QuoteOutcomeTable, QuoteTable, Schema } from '../src/storage/schema.js';
import { inWorkspace } from '../src/domain/context.js';
import { quoteReport } from '../src/domain/reports/quote-report.js';
import { leadRow } from '../test/helpers/hot-rows.js';

const LEADS = Number(process.env.BENCH_QUOTE_LEADS ?? 1_000_000);
const QUOTES = Number(process.env.BENCH_QUOTES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** BENCH_EXPLAIN=1 prints the Expired filter's plan as run at this size (PostgreSQL: with its statistics, analyzed). */
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';

async function timed(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ median: number; p95: number }> {
  await fn(-1);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { median: q(0.5), p95: q(0.95) };
}

async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `leadscan_bench_quotes_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function expiredPlan(db: Kysely<Schema>, postgres: boolean, workspaceId: string): Promise<string[]> {
  const today = new Date().toISOString().slice(0, 10);
  const compiled = quoteListQuery(
    { store: { db } } as unknown as DomainContext,
    { workspaceId, status: 'expired', limit: 200 },
    today,
  ).compile();
  const prefix = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan ';
  const { rows } = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${prefix}${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((r) => (postgres ? r['QUERY PLAN']! : r.detail!));
}

/** Status of the i-th seeded quote: most are drafts and sent ones, a few answered. */
const STATUSES = [
  'draft',
  'draft',
  'draft',
  'sent',
  'sent',
  'sent',
  'viewed',
  'viewed',
  'accepted',
  'declined',
  'withdrawn',
  'sent',
  'draft',
  'sent',
  'viewed',
  'accepted',
  'draft',
  'sent',
  'viewed',
  'sent',
];

export async function benchQuotes(backend: 'sqlite' | 'postgres', adminUrl = ''): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-quotes-'));
  const postgres = backend === 'postgres' ? await postgresDatabase(adminUrl) : null;
  const databaseUrl = postgres ? postgres.url : path.join(dir, 'leadscan.sqlite');
  const runtime = await openRuntime(
    loadConfig({
      DATABASE_URL: databaseUrl,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
    }),
    { mayCreate: true },
  );
  const { ctx } = runtime;
  try {
    const workspace = await createWorkspace({ ctx, input: { name: 'Bench' } });
    const pipeline = await createPipeline({ ctx: inWorkspace(ctx, workspace.id), input: { name: 'Sales' } });
    const source = await createSource({
      ctx: inWorkspace(ctx, workspace.id),
      input: { pipelineId: pipeline.id, name: 'Website form' },
    });
    // Three sources and four campaigns (and none), for the Report's breakdowns.
    const sources = [source];
    for (const name of ['Kitchen landing page', 'Home show']) {
      sources.push(
        await createSource({ ctx: inWorkspace(ctx, workspace.id), input: { pipelineId: pipeline.id, name } }),
      );
    }
    const CAMPAIGNS: Array<[string | null, string | null]> = [
      [null, null],
      ['google', 'spring'],
      ['facebook', 'fall'],
      ['google', 'brand'],
      ['newsletter', 'winter'],
    ];
    /** Each quote's lead: its source and campaign, for the outcome rows the send would write. */
    const leadOf = new Map<string, { source: string; utm: [string | null, string | null] }>();
    const seedStart = performance.now();
    const start = Date.UTC(2025, 0, 1);
    const leadIds: string[] = [];
    for (let i = 0; i < LEADS; i += 1000) {
      const rows: LeadTable[] = [];
      for (let j = i; j < Math.min(LEADS, i + 1000); j++) {
        const from = sources[j % sources.length]!;
        const row = leadRow({ id: from.id, pipeline_id: pipeline.id }, `Customer ${j}`);
        const utm = CAMPAIGNS[j % CAMPAIGNS.length]!;
        rows.push({
          ...row,
          workspace_id: workspace.id,
          stage: 'inbox',
          restored_from: null,
          email: `customer${j}@example.com`,
          received_at: new Date(start + j * 30_000).toISOString(),
          utm_source: utm[0],
          utm_campaign: utm[1],
        });
        if (j % Math.max(1, Math.floor(LEADS / QUOTES)) === 0) {
          leadIds.push(row.id);
          leadOf.set(row.id, { source: from.id, utm });
        }
      }
      await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('leads').values(rows).execute();
        await trx
          .deleteFrom('lead_unread')
          .where(
            'lead_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
      });
    }
    const leadsMs = performance.now() - seedStart;
    const quotesStart = performance.now();
    const today = new Date();
    for (let i = 0; i < QUOTES; i += 500) {
      const quotes: QuoteTable[] = [];
      const lines: Array<Record<string, unknown>> = [];
      const outcomes: QuoteOutcomeTable[] = [];
      for (let j = i; j < Math.min(QUOTES, i + 500); j++) {
        const status = STATUSES[j % STATUSES.length]!;
        const id = `quo_bench${String(j).padStart(8, '0')}`;
        const created = new Date(start + j * 300_000).toISOString();
        const sent = status !== 'draft';
        const base = {
          workspace_id: workspace.id,
          lead_id: leadIds[j % leadIds.length]!,
          chain_id: id,
          customer_name: `Customer ${j}`,
          customer_email: `customer${j}@example.com`,
          customer_phone: null,
          customer_address: null,
          title: 'Kitchen refit',
          note: null,
          terms: 'Payment within 30 days.',
          // One in four sent quotes has passed its valid-until day: Expired.
          valid_until: new Date(today.getTime() + (j % 4 === 0 ? -30 : 30) * 86_400_000).toISOString().slice(0, 10),
          currency: 'USD',
          tax_rates: '[]',
          subtotal: 123_400,
          total: 123_400,
          created_by_user_id: null,
          created_at: created,
          updated_at: created,
          sent_by_user_id: null,
          view_count: status === 'viewed' ? 1 : 0,
          accepted_name: status === 'accepted' ? `Customer ${j}` : null,
          acceptance_hash: null,
          chosen_lines: null,
          decline_reason: null,
        };
        const revised = j % 20 === 7;
        // Answered 0 to 20 days after the send.
        const answeredAt = new Date(start + j * 300_000 + (j % 21) * 86_400_000).toISOString();
        if (sent) {
          const lead = leadOf.get(base.lead_id)!;
          const outcome = ['accepted', 'declined', 'withdrawn'].includes(status) ? status : 'open';
          const answered = outcome === 'accepted' || outcome === 'declined';
          // The row Send, Accept, Decline and Withdraw write (quotes/quote-outcome.ts), in the workspace's zone (UTC).
          outcomes.push({
            chain_id: id,
            workspace_id: workspace.id,
            lead_id: base.lead_id,
            quote_id: id,
            source_id: lead.source,
            utm_source: lead.utm[0],
            utm_campaign: lead.utm[1],
            currency: 'USD',
            value: 123_400 + (j % 7) * 10_000,
            first_sent_at: created,
            first_sent_day: created.slice(0, 10),
            outcome,
            answered_at: answered ? answeredAt : null,
            answer_days: answered ? j % 21 : null,
          });
        }
        quotes.push({
          ...base,
          id,
          number: sent ? `Q-${String(j + 1).padStart(6, '0')}` : null,
          revision: 1,
          status: revised ? 'replaced' : status,
          token_hash: sent ? crypto.randomBytes(32).toString('hex') : null,
          token_enc: null,
          sent_at: sent ? created : null,
          viewed_at: status === 'viewed' ? created : null,
          total: sent ? 123_400 + (j % 7) * 10_000 : 123_400,
          accepted_at: status === 'accepted' ? answeredAt : null,
          declined_at: status === 'declined' ? answeredAt : null,
          withdrawn_at: status === 'withdrawn' ? created : null,
        } as unknown as QuoteTable);
        if (revised) {
          quotes.push({
            ...base,
            id: `${id}r2`,
            number: null,
            revision: 2,
            status: 'draft',
            token_hash: null,
            token_enc: null,
            sent_at: null,
            viewed_at: null,
            accepted_at: null,
            declined_at: null,
            withdrawn_at: null,
          } as unknown as QuoteTable);
        }
        for (let k = 0; k < 3; k++) {
          lines.push({
            id: `qln_${id}_${k}`,
            quote_id: id,
            position: k,
            description: `Line ${k}`,
            quantity: 100,
            unit: 'each',
            unit_price: 41_133,
            amount: 41_133,
            taxes: '[]',
            optional: 0,
            chosen: 1,
            source: null,
          });
        }
      }
      await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('quotes').values(quotes).execute();
        await trx
          .insertInto('quote_lines')
          .values(lines as never)
          .execute();
        if (outcomes.length > 0) await trx.insertInto('quote_outcomes').values(outcomes).execute();
      });
    }
    const quotesMs = performance.now() - quotesStart;
    if (postgres) await sql`analyze`.execute(runtime.store.db);

    // A 300-line draft, and drafts to send, made as a person makes them.
    const lead = leadIds[1]!;
    const big = await createQuote({ ctx: inWorkspace(ctx, workspace.id), input: { leadId: lead } });
    for (let k = 0; k < 300; k++) {
      await addQuoteLine({
        ctx: inWorkspace(ctx, workspace.id),
        input: {
          quoteId: big.id,
          line: { description: `Item ${k}`, quantity: '2.5', unit: 'm2', price: '42.50' },
        },
      });
    }
    const lineIds = (
      await ctx.store.db
        .selectFrom('quote_lines')
        .select('id')
        .where('quote_id', '=', big.id)
        .orderBy('position')
        .execute()
    ).map((l) => l.id);
    const drafts: string[] = [];
    for (let k = 0; k <= RUNS; k++) {
      const draft = await createQuote({ ctx: inWorkspace(ctx, workspace.id), input: { leadId: leadIds[2 + k]! } });
      for (let n = 0; n < 3; n++)
        await addQuoteLine({
          ctx: inWorkspace(ctx, workspace.id),
          input: {
            quoteId: draft.id,
            line: { description: `Item ${n}`, quantity: '1', unit: 'each', price: '100.00' },
          },
        });
      drafts.push(draft.id);
    }
    const by = { userId: null, label: 'bench' };
    let token = '';
    const rows: Array<[string, { median: number; p95: number }]> = [];
    rows.push([
      'Quotes screen, first page (200)',
      await timed(RUNS, () => listQuotes({ ctx, input: { workspaceId: workspace.id, limit: 200 } })),
    ]);
    for (const status of ['accepted', 'declined', 'viewed', 'expired', 'draft'] as ListStatus[]) {
      rows.push([
        `Quotes screen, status ${status}`,
        await timed(RUNS, () => listQuotes({ ctx, input: { workspaceId: workspace.id, status, limit: 200 } })),
      ]);
    }
    rows.push([
      'a line of a 300-line draft changed (recalculated, saved)',
      await timed(RUNS, (i) =>
        updateQuoteLine({
          ctx: inWorkspace(ctx, workspace.id),
          input: {
            quoteId: big.id,
            lineId: lineIds[(i + 300) % 300]!,
            line: { description: `Item ${i}`, quantity: String(3 + (i % 5)), unit: 'm2', price: '42.50' },
          },
        }),
      ),
    ]);
    rows.push([
      "a person's Send",
      await timed(RUNS, async (i) => {
        const sent = await sendQuote({ ctx: inWorkspace(ctx, workspace.id), input: { quoteId: drafts[i + 1]!, by } });
        token = sent.token;
      }),
    ]);
    rows.push([
      "the customer's page, its data (openQuoteByToken)",
      await timed(RUNS, () => openQuoteByToken({ ctx, input: { token } })),
    ]);
    const app = await buildApp(ctx, { logger: false });
    try {
      const page = async (link: string) => {
        const res = await app.inject({ method: 'GET', url: `/q/${link}` });
        if (res.statusCode !== 200) throw new Error(`GET /q/{token} answered ${res.statusCode}`);
      };
      rows.push(["the customer's page, GET /q/{token} (3 lines)", await timed(RUNS, () => page(token))]);
      // The 300-line draft's copies, sent as a person sends them; then the page of the last one.
      const bigDrafts: string[] = [];
      for (let k = 0; k <= RUNS; k++)
        bigDrafts.push((await copyQuote({ ctx: inWorkspace(ctx, workspace.id), input: { quoteId: big.id } })).id);
      let bigToken = '';
      rows.push([
        "a person's Send of a 300-line draft",
        await timed(RUNS, async (i) => {
          bigToken = (
            await sendQuote({ ctx: inWorkspace(ctx, workspace.id), input: { quoteId: bigDrafts[i + 1]!, by } })
          ).token;
        }),
      ]);
      rows.push(["the customer's page, GET /q/{token} (300 lines)", await timed(RUNS, () => page(bigToken))]);
    } finally {
      await app.close();
    }
    // The Report (quotes first sent in 2025: the seeded year). Its baseline: the same figures counted by plain SQL
    // over the quotes and leads (the test's way, test/domain/reports/quote-report.test.ts), in the same run.
    const inWs = inWorkspace(ctx, workspace.id);
    let reported = 0;
    rows.push([
      'the Report, 12 months by source and campaign',
      await timed(RUNS, async () => {
        reported = (await quoteReport({ ctx: inWs, input: { from: '2025-01-01', to: '2025-12-31' } })).sent;
      }),
    ]);
    rows.push([
      'the Report, a range cutting two months (15 Jan–15 Dec)',
      await timed(RUNS, () => quoteReport({ ctx: inWs, input: { from: '2025-01-15', to: '2025-12-15' } })),
    ]);
    let counted = 0;
    rows.push([
      'baseline: the same by plain SQL over quotes and leads',
      await timed(Math.min(RUNS, 5), async () => {
        counted = 0;
        for (const key of [sql`l.source_id`, sql`coalesce(l.utm_source, '') || '/' || coalesce(l.utm_campaign, '')`]) {
          const { rows: groups } = await sql<{ sent: number | string }>`
            select ${key} as k, count(*) as sent,
              sum(case when q.status = 'accepted' then 1 else 0 end) as accepted,
              sum(case when q.status = 'declined' then 1 else 0 end) as declined,
              sum(q.total) as value_sent, sum(case when q.status = 'accepted' then q.total else 0 end) as value_won
            from quotes q join leads l on l.id = q.lead_id
            where q.workspace_id = ${workspace.id}
              and q.revision = (select max(r.revision) from quotes r where r.chain_id = q.chain_id and r.sent_at is not null)
              and (select min(f.sent_at) from quotes f where f.chain_id = q.chain_id) >= '2025-01-01'
              and (select min(f.sent_at) from quotes f where f.chain_id = q.chain_id) < '2026-01-01'
            group by 1`.execute(runtime.store.db);
          counted = groups.reduce((n, g) => n + Number(g.sent), 0);
        }
      }),
    ]);
    if (reported === 0 || reported !== counted)
      throw new Error(`the Report counted ${reported} quotes, plain SQL ${counted}`);
    const label = postgres ? 'PostgreSQL' : 'SQLite';
    return [
      `${label}, ${LEADS.toLocaleString('en')} leads and ${QUOTES.toLocaleString('en')} quotes in one workspace (seeded in ${(leadsMs / 1000).toFixed(1)} s + ${(quotesMs / 1000).toFixed(1)} s), ${RUNS} runs each, median / p95, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}:`,
      ...rows.map(([name, t]) => `  ${name.padEnd(58)} ${t.median.toFixed(1)} ms / ${t.p95.toFixed(1)} ms`),
      ...(EXPLAIN
        ? [
            `  the Expired filter's plan at this size:`,
            ...(await expiredPlan(runtime.store.db, Boolean(postgres), workspace.id)).map((l) => `    ${l}`),
          ]
        : []),
    ].join('\n');
  } finally {
    await runtime.store.close();
    await postgres?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
