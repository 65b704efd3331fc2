/**
 * Invoices at scale (`BENCH_ONLY=invoices`, driven by bench/run.ts): one workspace with 1,000 leads, BENCH_INVOICES
 * invoices and credit notes (100,000 by default, sent over five years up to today, three lines each) and
 * BENCH_PAYMENTS payments (300,000), on SQLite and on PostgreSQL when a server is reachable, in this process through
 * the verbs the screens call and the pages themselves through the app (`inject`, a signed-in owner's session), each
 * timed over BENCH_RUNS runs (median and p95): the Invoices screen's first page and each filter, the outstanding and
 * overdue totals, the screen itself; an invoice's page (its verb and `GET /w/{ws}/invoices/{id}`); the customer's page
 * (`openInvoiceByToken` and `GET /i/{token}`); the baseline, the same counts and sums by plain SQL, which must agree.
 * Then the accountant's export (CSV and .xlsx) of a year and of a tenth of it, each in a process of its own, with the
 * memory it grew by: the export reads a page at a time, so ten times the invoices must not take ten times the memory.
 *
 *   BENCH_ONLY=invoices BENCH_INVOICES=100000 BENCH_PAYMENTS=300000 BENCH_DATABASE_URL=postgres://… npm run bench
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql, type Compilable, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createSession } from '../src/domain/auth/sessions.js';
import { inWorkspace, type WorkspaceContext } from '../src/domain/context.js';
import { openInvoiceByToken } from '../src/domain/invoices/customer-invoice.js';
import { getInvoice } from '../src/domain/invoices/get-invoice.js';
import { invoiceTotals } from '../src/domain/invoices/invoice-view.js';
import {
  INVOICE_FILTERS,
  invoiceListQuery,
  listInvoices,
  outstandingTotals,
  outstandingTotalsQuery,
} from '../src/domain/invoices/list-invoices.js';
import { hashLinkToken, mintLinkToken } from '../src/domain/link-token.js';
import { lineAmount, type TaxRate } from '../src/domain/money.js';
import { newId } from '../src/domain/ids.js';
import { createPipeline } from '../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../src/domain/sources/create-source.js';
import { createUser } from '../src/domain/users/create-user.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { openRuntime } from '../src/runtime.js';
import type { InvoiceLineTable, InvoicePaymentTable, InvoiceTable, LeadTable, Schema } from '../src/storage/schema.js';
import { leadRow } from '../test/helpers/hot-rows.js';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 300_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const LEADS = 1000;
/** BENCH_EXPLAIN=1 prints the plans of the filters and totals as run at this size (PostgreSQL: analyzed). */
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const DAY = 86_400_000;
/** Five years of invoices up to today: the calendar year before this one holds a fifth of them. */
const SPAN_DAYS = 5 * 365;
/** Older than this, an invoice is mostly settled: three in four of the cycle's open ones and drafts are paid. */
const SETTLED_AFTER_DAYS = 60;
const TAX_RATES: TaxRate[] = [
  { name: 'GST', rate: 5000 },
  { name: 'QST', rate: 9975 },
];
const METHODS = ['bank_transfer', 'card', 'cash', 'cheque', 'other'];

/**
 * Runs before the timed ones: a page's code is compiled by V8 over its first runs, as a server's is in its first
 * minute, and one run left the first timed ones paying for it (the PostgreSQL invoice page 12.0 ms after one, 8.4 ms
 * after 300; docs/performance.md).
 */
const WARM_UP = 10;

/**
 * Median and p95 of `runs` runs (after WARM_UP to warm up), and the median CPU time this process spent in a run: on a
 * shared machine the wall time waits for other work, the CPU time much less so (PostgreSQL's own is not in it).
 */
async function timed(
  runs: number,
  fn: (i: number) => Promise<unknown>,
): Promise<{ median: number; p95: number; cpu: number }> {
  for (let i = 0; i < WARM_UP; i++) await fn(-1);
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await fn(i);
    const spent = process.cpuUsage(used);
    samples.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  return { median: q(samples, 0.5), p95: q(samples, 0.95), cpu: q(cpu, 0.5) };
}

async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `leadscan_bench_invoices_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * The i-th invoice's place in a cycle of twenty, as a busy contractor's spread: a draft, sent and viewed ones, two
 * partly paid, nine paid (one of them credited by the credit note after it), a credit note, a void one.
 */
const CYCLE = [
  'draft',
  'sent',
  'sent',
  'viewed',
  'viewed',
  'partly_paid',
  'partly_paid',
  'paid',
  'paid',
  'credit_note',
  'paid',
  'paid',
  'paid',
  'paid',
  'paid',
  'void',
  'sent',
  'viewed',
  'paid',
  'paid',
] as const;
const CREDITED = CYCLE.indexOf('credit_note') - 1;

interface Plan {
  status: string;
  credit: boolean;
  /** Payments recorded on it. */
  payments: number;
}

/**
 * Every invoice's status and number of payments, before any is written: the cycle's, with the ones older than
 * SETTLED_AFTER_DAYS settled but for one cycle in four (those stay open, and overdue); paid ones take 1–3 payments,
 * partly paid 1–2, and one paid invoice in ten is an instalment plan that takes what is left of BENCH_PAYMENTS.
 */
function planInvoices(): Plan[] {
  const plans: Plan[] = [];
  const instalments: number[] = [];
  let payments = 0;
  for (let j = 0; j < INVOICES; j++) {
    const age = ((INVOICES - j) * SPAN_DAYS) / INVOICES;
    let status: string = CYCLE[j % CYCLE.length]!;
    const credit = status === 'credit_note';
    if (credit) status = 'sent';
    else if (
      age > SETTLED_AFTER_DAYS &&
      ['draft', 'sent', 'viewed', 'partly_paid'].includes(status) &&
      Math.floor(j / CYCLE.length) % 4 !== 0
    )
      status = 'paid';
    let count = 0;
    if (status === 'partly_paid') count = 1 + (j % 2);
    else if (status === 'paid') {
      count = 1 + (j % 3);
      if (Math.floor(j / CYCLE.length) % 10 === 0 && j % CYCLE.length === CREDITED) instalments.push(j);
      else if (Math.floor(j / CYCLE.length) % 10 === 5) instalments.push(j);
    }
    payments += count;
    plans.push({ status, credit, payments: count });
  }
  // What is left goes to the instalment plans, evenly (each keeps at least its one payment).
  const left = PAYMENTS - payments;
  for (const [i, j] of instalments.entries()) {
    const plan = plans[j]!;
    payments -= plan.payments;
    plan.payments = Math.max(
      1,
      Math.floor(left / instalments.length) + plan.payments + (i < left % instalments.length ? 1 : 0),
    );
    payments += plan.payments;
  }
  return plans;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function explain(db: Kysely<Schema>, postgres: boolean, query: Compilable): Promise<string[]> {
  const compiled = query.compile();
  const prefix = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan ';
  const { rows } = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${prefix}${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((r) => (postgres ? r['QUERY PLAN']! : r.detail!));
}

interface ExportFigures {
  rows: number | null;
  bytes: number;
  ms: number;
  rssBeforeMb: number;
  rssGrowthMb: number;
  heapBeforeMb: number;
  heapGrowthMb: number;
  liveGrowthMb: number;
  maxRssMb: number;
}

/** One export in a fresh process (bench/invoices-export-child.ts), so its memory is the export's, not the seeding's. */
function exportInChild(env: Record<string, string>): Promise<ExportFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'invoices-export-child.ts')],
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as ExportFigures) : reject(new Error(`export child exited ${code}`)),
    );
  });
}

export async function benchInvoices(backend: 'sqlite' | 'postgres', adminUrl = ''): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-invoices-'));
  const postgres = backend === 'postgres' ? await postgresDatabase(adminUrl) : null;
  const databaseUrl = postgres ? postgres.url : path.join(dir, 'leadscan.sqlite');
  const appSecret = crypto.randomBytes(32).toString('base64url');
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: 'silent' }),
    { mayCreate: true },
  );
  const { ctx } = runtime;
  try {
    const workspace = await createWorkspace({ ctx, input: { name: 'Bench' } });
    const wctx: WorkspaceContext = inWorkspace(ctx, workspace.id);
    const pipeline = await createPipeline({ ctx: wctx, input: { name: 'Sales' } });
    const source = await createSource({ ctx: wctx, input: { pipelineId: pipeline.id, name: 'Website form' } });
    const now = Date.now();
    const seedStart = performance.now();
    const leads: Array<{ id: string; name: string; email: string }> = [];
    const leadRows: LeadTable[] = [];
    for (let j = 0; j < LEADS; j++) {
      const row = leadRow({ id: source.id, pipeline_id: pipeline.id }, `Customer ${j}`);
      const email = `customer${j}@example.com`;
      leads.push({ id: row.id, name: `Customer ${j}`, email });
      leadRows.push({
        ...row,
        workspace_id: workspace.id,
        stage: 'inbox',
        restored_from: null,
        email,
        received_at: new Date(now - SPAN_DAYS * DAY - (LEADS - j) * 60_000).toISOString(),
      } as LeadTable);
    }
    await ctx.store.writer.write(async (trx) => {
      for (let i = 0; i < leadRows.length; i += 200) {
        const rows = leadRows.slice(i, i + 200);
        await trx.insertInto('leads').values(rows).execute();
        await trx
          .deleteFrom('lead_unread')
          .where(
            'lead_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
      }
    });

    // The invoices, oldest first: each sent the hour after it was made, due 14 days after its issue day.
    const plans = planInvoices();
    let invoiceNumber = 0;
    let creditNumber = 0;
    let paymentCount = 0;
    /** What the page rows open: an instalment plan's invoice with a credit note, and a recent open one's link. */
    let heavy = { id: '', token: '', payments: 0 };
    let open = { id: '', token: '' };
    let overdue = { id: '', token: '' };
    /** The credited invoice just before a credit note: its id and credited line, for the note. */
    let credited: { id: string; lineId: string; line: InvoiceLineTable } | null = null;
    const step = (SPAN_DAYS * DAY) / INVOICES;
    for (let i = 0; i < INVOICES; i += 500) {
      const invoices: InvoiceTable[] = [];
      const lines: InvoiceLineTable[] = [];
      const payments: InvoicePaymentTable[] = [];
      for (let j = i; j < Math.min(INVOICES, i + 500); j++) {
        const plan = plans[j]!;
        const id = newId('ivc');
        const lead = leads[j % LEADS]!;
        const createdMs = now - (INVOICES - j) * step;
        const created = new Date(createdMs).toISOString();
        const draft = plan.status === 'draft';
        const sentMs = createdMs + 3_600_000;
        const sentAt = draft ? null : new Date(sentMs).toISOString();
        const issue = draft ? null : isoDay(sentMs);
        const invoiceLines: InvoiceLineTable[] = plan.credit
          ? [
              {
                ...credited!.line,
                id: newId('ivl'),
                invoice_id: id,
                position: 0,
                credits_line_id: credited!.lineId,
              },
            ]
          : [0, 1, 2].map((k) => {
              const quantity = 100 * (1 + ((j + k) % 4));
              const unitPrice = 5_000 + ((j * 37 + k * 1_301) % 45_000);
              return {
                id: newId('ivl'),
                invoice_id: id,
                position: k,
                description: ['Oak flooring, supplied and laid', 'Skirting boards', 'Site clean-up'][k]!,
                quantity,
                unit: ['m2', 'm', 'fixed'][k]!,
                unit_price: unitPrice,
                amount: lineAmount(quantity, unitPrice),
                taxes: JSON.stringify(k === 2 ? ['GST'] : ['GST', 'QST']),
                subtracts_invoice_id: null,
                credits_line_id: null,
              };
            });
        lines.push(...invoiceLines);
        const totals = invoiceTotals(
          invoiceLines.map((l) => ({
            quantity: l.quantity,
            unitPrice: l.unit_price,
            taxes: JSON.parse(l.taxes) as string[],
          })),
          TAX_RATES,
        );
        // The credit note that follows a credited invoice takes back its first line.
        const next = plans[j + 1];
        const creditTotal =
          next?.credit && !plan.credit
            ? invoiceTotals(
                [
                  {
                    quantity: invoiceLines[0]!.quantity,
                    unitPrice: invoiceLines[0]!.unit_price,
                    taxes: JSON.parse(invoiceLines[0]!.taxes) as string[],
                  },
                ],
                TAX_RATES,
              ).total
            : 0;
        let paid = 0;
        if (plan.payments > 0) {
          // Paid: the payments add up to the total; partly paid: 30 % each.
          const share =
            plan.status === 'paid' ? Math.floor(totals.total / plan.payments) : Math.floor(totals.total * 0.3);
          for (let p = 0; p < plan.payments; p++) {
            const amount = plan.status === 'paid' && p === 0 ? totals.total - share * (plan.payments - 1) : share;
            const paidOn = isoDay(sentMs + (p + 1) * 7 * DAY);
            payments.push({
              id: newId('pay'),
              invoice_id: id,
              workspace_id: workspace.id,
              paid_on: paidOn,
              amount,
              method: METHODS[(j + p) % METHODS.length]!,
              reference: p % 2 === 0 ? `Transfer ${j}-${p}` : null,
              recorded_by_user_id: null,
              created_at: `${paidOn}T12:00:00.000Z`,
            });
            paid += amount;
          }
          paymentCount += plan.payments;
        }
        const token = draft ? null : mintLinkToken();
        const kind = plan.credit ? 'credit_note' : 'invoice';
        const balance = plan.credit || plan.status === 'void' ? 0 : totals.total - paid - creditTotal;
        invoices.push({
          id,
          workspace_id: workspace.id,
          kind,
          status: plan.status,
          number: draft
            ? null
            : plan.credit
              ? `CN-${String(++creditNumber).padStart(4, '0')}`
              : `INV-${String(++invoiceNumber).padStart(4, '0')}`,
          quote_id: null,
          quote_chain_id: null,
          lead_id: lead.id,
          credit_of: plan.credit ? credited!.id : null,
          customer_name: lead.name,
          customer_email: lead.email,
          customer_phone: null,
          customer_address: `${j % 900} High Street`,
          title: plan.credit ? null : 'Oak floor, ground floor',
          note: null,
          currency: 'USD',
          tax_rates: JSON.stringify(TAX_RATES),
          locale: draft ? null : 'en-US',
          payment_terms_days: 14,
          payment_instructions: draft || plan.credit ? null : 'Bank transfer to 12-34-56 12345678',
          issue_date: issue,
          due_date: draft || plan.credit ? null : isoDay(sentMs + 14 * DAY),
          subtotal: totals.subtotal,
          total: totals.total,
          paid,
          credited: creditTotal,
          balance,
          token_hash: token ? hashLinkToken(token) : null,
          token_enc: token ? ctx.secrets.seal(token) : null,
          credit_reason: plan.credit ? 'Skirting not fitted' : null,
          void_reason: plan.status === 'void' ? 'Raised twice' : null,
          created_by_user_id: null,
          created_at: created,
          updated_at: created,
          sent_at: sentAt,
          sent_by_user_id: null,
          viewed_at: ['viewed', 'partly_paid', 'paid'].includes(plan.status)
            ? new Date(sentMs + 7_200_000).toISOString()
            : null,
          view_count: ['viewed', 'partly_paid', 'paid'].includes(plan.status) ? 1 + (j % 3) : 0,
          voided_at: plan.status === 'void' ? new Date(sentMs + DAY).toISOString() : null,
        });
        if (creditTotal > 0) credited = { id, lineId: invoiceLines[0]!.id, line: invoiceLines[0]! };
        if (token && creditTotal > 0 && plan.payments >= heavy.payments) heavy = { id, token, payments: plan.payments };
        if (token && plan.status === 'partly_paid' && (now - createdMs) / DAY < 14) open = { id, token };
        if (token && plan.status === 'sent' && !overdue.id && (now - sentMs) / DAY > 30) overdue = { id, token };
      }
      await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('invoices').values(invoices).execute();
        await trx.insertInto('invoice_lines').values(lines).execute();
        for (let p = 0; p < payments.length; p += 1000)
          await trx
            .insertInto('invoice_payments')
            .values(payments.slice(p, p + 1000))
            .execute();
      });
    }
    await ctx.store.writer.write(async (trx) => {
      for (const [series, last] of [
        ['invoice', invoiceNumber],
        ['credit_note', creditNumber],
      ] as const)
        await trx
          .insertInto('invoice_counters')
          .values({ workspace_id: workspace.id, series, last_number: last })
          .execute();
    });
    const seedMs = performance.now() - seedStart;
    // As autovacuum leaves a table that stopped growing: statistics, and the visibility map index-only scans read.
    if (postgres) await sql`vacuum analyze`.execute(runtime.store.db);
    if (!heavy.id || !open.id || !overdue.id) throw new Error('the seeded invoices lack one the page rows open');

    const rows: Array<[string, { median: number; p95: number; cpu: number }]> = [];
    rows.push([
      'Invoices screen, first page (51, as the screen reads it)',
      await timed(RUNS, () => listInvoices({ ctx: wctx, input: { limit: 51 } })),
    ]);
    for (const status of INVOICE_FILTERS)
      rows.push([
        `Invoices screen, filter ${status}`,
        await timed(RUNS, () => listInvoices({ ctx: wctx, input: { status, limit: 51 } })),
      ]);
    let totals = await outstandingTotals({ ctx: wctx, input: {} });
    rows.push([
      'the outstanding and overdue totals',
      await timed(RUNS, async () => {
        totals = await outstandingTotals({ ctx: wctx, input: {} });
      }),
    ]);

    // The baseline: the same counts and sums by plain SQL over every invoice row (an open invoice: sent, viewed or
    // partly paid, not a credit note; overdue: open and past its due day, the workspace's zone being UTC here).
    const today = isoDay(now);
    let counted = { open: 0, outstanding: 0, late: 0, overdue: 0 };
    rows.push([
      'baseline: the same totals by plain SQL over every row',
      await timed(RUNS, async () => {
        const { rows: groups } = await sql<{ open: unknown; outstanding: unknown; late: unknown; overdue: unknown }>`
          select count(*) as open, sum(balance) as outstanding,
            sum(case when due_date < ${today} then 1 else 0 end) as late,
            sum(case when due_date < ${today} then balance else 0 end) as overdue
          from invoices
          where workspace_id = ${workspace.id} and kind <> 'credit_note' and currency = 'USD'
            and status in ('sent', 'viewed', 'partly_paid')`.execute(runtime.store.db);
        const g = groups[0]!;
        counted = {
          open: Number(g.open),
          outstanding: Number(g.outstanding),
          late: Number(g.late),
          overdue: Number(g.overdue),
        };
      }),
    ]);
    const { rows: byStatus } = await sql<{ status: string; kind: string; n: unknown }>`
      select status, kind, count(*) as n from invoices where workspace_id = ${workspace.id}
      group by status, kind order by kind, status`.execute(runtime.store.db);
    const mismatch =
      totals.outstanding !== counted.outstanding ||
      totals.overdue !== counted.overdue ||
      totals.outstandingCount !== counted.open ||
      totals.overdueCount !== counted.late;

    // The pages: a signed-in owner (a session made as sign-in makes one), through the app.
    const owner = await createUser({
      ctx,
      input: { email: 'owner@bench.example', workspaceId: workspace.id, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx, input: { userId: owner.userId } });
    const cookie = `leadscan_session=${sessionId}`;
    const app = await buildApp(ctx, { logger: false });
    try {
      const page = async (url: string, headers: Record<string, string> = {}) => {
        const res = await app.inject({ method: 'GET', url, headers });
        if (res.statusCode !== 200)
          throw new Error(`GET ${url.replace(/\/i\/.*/, '/i/{token}')} answered ${res.statusCode}`);
        return res.body;
      };
      const screen = `/w/${workspace.id}/invoices`;
      rows.push(['the Invoices screen, GET …/invoices', await timed(RUNS, () => page(screen, { cookie }))]);
      rows.push([
        'the Invoices screen, GET …/invoices?status=overdue',
        await timed(RUNS, () => page(`${screen}?status=overdue`, { cookie })),
      ]);
      rows.push([
        `an invoice's data (getInvoice; ${heavy.payments} payments, a credit note)`,
        await timed(RUNS, () => getInvoice({ ctx: wctx, input: { ref: heavy.id } })),
      ]);
      rows.push([
        "an invoice's page, GET …/invoices/{id} (the same)",
        await timed(RUNS, () => page(`${screen}/${heavy.id}`, { cookie })),
      ]);
      rows.push([
        "the customer's page, its data (openInvoiceByToken)",
        await timed(RUNS, () => openInvoiceByToken({ ctx, input: { token: open.token } })),
      ]);
      rows.push([
        "the customer's page, GET /i/{token} (partly paid)",
        await timed(RUNS, () => page(`/i/${open.token}`)),
      ]);
      rows.push([
        "the customer's page, GET /i/{token} (overdue)",
        await timed(RUNS, () => page(`/i/${overdue.token}`)),
      ]);
      rows.push([
        `the customer's page, GET /i/{token} (${heavy.payments} payments, credited)`,
        await timed(RUNS, () => page(`/i/${heavy.token}`)),
      ]);
    } finally {
      await app.close();
    }

    // The accountant's export: the calendar year before this one, and its first tenth (by count), each format.
    const year = new Date(now).getUTCFullYear() - 1;
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const inYear = async (last: string) =>
      Number(
        (
          await runtime.store.db
            .selectFrom('invoices')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', workspace.id)
            .where('issue_date', '>=', from)
            .where('issue_date', '<=', last)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const yearCount = await inYear(to);
    const tenth = await runtime.store.db
      .selectFrom('invoices')
      .select('issue_date')
      .where('workspace_id', '=', workspace.id)
      .where('issue_date', '>=', from)
      .orderBy('issue_date')
      .offset(Math.floor(yearCount / 10))
      .limit(1)
      .executeTakeFirstOrThrow();
    const tenthTo = tenth.issue_date!;
    const tenthCount = await inYear(tenthTo);
    const exports: string[] = [];
    for (const format of ['csv', 'xlsx'] as const) {
      for (const [last, count] of [
        [tenthTo, tenthCount],
        [to, yearCount],
      ] as const) {
        const f = await exportInChild({
          DATABASE_URL: databaseUrl,
          APP_SECRET: appSecret,
          BENCH_WORKSPACE: workspace.id,
          BENCH_FORMAT: format,
          BENCH_FROM: from,
          BENCH_TO: last,
        });
        if (f.rows !== null && f.rows !== count) throw new Error(`the CSV has ${f.rows} rows, the range ${count}`);
        exports.push(
          `  ${`${format.toUpperCase()}, ${count.toLocaleString('en')} invoices (${from} to ${last})`.padEnd(50)} ` +
            `${(f.ms / 1000).toFixed(2)} s, ${(f.bytes / 1e6).toFixed(1)} MB; RSS ${f.rssBeforeMb.toFixed(0)} MB before, ` +
            `+${f.rssGrowthMb.toFixed(1)} MB at most during it (peak ${f.maxRssMb.toFixed(0)} MB); heap +${f.heapGrowthMb.toFixed(1)} MB at most, ` +
            `live heap (after a full GC, every 250 ms) +${f.liveGrowthMb.toFixed(1)} MB at most`,
        );
      }
    }

    const label = postgres ? 'PostgreSQL' : 'SQLite';
    const counts = byStatus.map(
      (r) => `${r.kind === 'credit_note' ? 'credit note ' : ''}${r.status} ${Number(r.n).toLocaleString('en')}`,
    );
    const out = [
      `${label}, ${INVOICES.toLocaleString('en')} invoices and credit notes, ${paymentCount.toLocaleString('en')} payments, ${LEADS.toLocaleString('en')} leads in one workspace (seeded in ${(seedMs / 1000).toFixed(1)} s), ${RUNS} runs each, median / p95, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}:`,
      `  (${counts.join(', ')}; open ${counted.open.toLocaleString('en')}, of them overdue ${counted.late.toLocaleString('en')})`,
      `  ${''.padEnd(66)} median / p95, and this process's CPU a run (median)`,
      ...rows.map(
        ([name, t]) =>
          `  ${name.padEnd(66)} ${t.median.toFixed(1)} ms / ${t.p95.toFixed(1)} ms  (CPU ${t.cpu.toFixed(1)} ms)`,
      ),
      mismatch
        ? `  MISMATCH: the totals say ${totals.outstandingCount} open (${totals.outstanding}), ${totals.overdueCount} overdue (${totals.overdue}); plain SQL ${counted.open} (${counted.outstanding}), ${counted.late} (${counted.overdue})`
        : `  the totals agree with plain SQL: ${counted.open} open (${counted.outstanding}), ${counted.late} overdue (${counted.overdue})`,
      `  the accountant's export, each in a process of its own (the stream read to its end):`,
      ...exports,
    ];
    if (EXPLAIN) {
      const db = runtime.store.db;
      for (const status of [undefined, ...INVOICE_FILTERS]) {
        out.push(`  plan, ${status ?? 'first page'}:`);
        for (const l of await explain(db, Boolean(postgres), invoiceListQuery(wctx, { status, limit: 51 }, today)))
          out.push(`    ${l}`);
      }
      out.push(`  plan, totals:`);
      for (const l of await explain(db, Boolean(postgres), outstandingTotalsQuery(wctx, today))) out.push(`    ${l}`);
    }
    return out.join('\n');
  } finally {
    await runtime.store.close();
    await postgres?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
