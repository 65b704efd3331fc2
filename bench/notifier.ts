/**
 * The notifier under a flood (`BENCH_ONLY=notifier`, driven by bench/run.ts, which passes its servers and load
 * generators in), per database, on a database of its own:
 *
 * 1. Throughput. `leadscan serve` (email off) takes wrk at saturation for BENCH_SECONDS: its req/s is intake's
 *    saturation rate, and what it stored is a backlog. The server stops; in this process, the workspace's mark is
 *    put before the first lead and `noticeArrivals` runs look after look until nothing is left: leads turned into
 *    pending notices per second, beside the saturation rate.
 * 2. A real lead through a flood. `serve` again with email on (SMTP_URL: smtp-server on loopback, in this process,
 *    every message timed as it arrives). Workspace A's source is flooded at half the saturation rate for
 *    BENCH_FLOOD_SECONDS (120 by default; bench/open-loop.ts, its own process) while a real lead is posted every 2 s
 *    to A's other source and one to workspace B; each real lead's latency is from its 200 to the first email that
 *    names it (its link). Also: how many lead emails A's owner got (at most one a minute), and how long after the
 *    flood until every stored lead is noticed.
 */
import os from 'node:os';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createPipeline } from '../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../src/domain/sources/create-source.js';
import { createUser } from '../src/domain/users/create-user.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { noticeArrivals } from '../src/domain/notifications/notice-arrivals.js';
import { openRuntime } from '../src/runtime.js';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';
import { inWorkspace } from '../src/domain/context.js';

export interface NotifierBenchDeps {
  seconds: number;
  connections: number;
  leadFile: string;
  leadscan(
    databaseUrl: string,
    workers?: number,
    env?: Record<string, string>,
  ): Promise<{ url: string; token: string; appSecret: string; stop(): Promise<void> }>;
  wrk(
    url: string,
    bodyFile: string,
    headers: Record<string, string>,
    connections: number,
    seconds: number,
  ): Promise<{ rps: number; ok: number }>;
  fixedRate(
    url: string,
    bodyFile: string,
    rate: number,
    seconds: number,
  ): Promise<{ p50: number; p90: number; p99: number; rps: number; ok: number }>;
}

export interface BenchDatabase {
  label: string;
  url: string;
  drop(): Promise<void>;
}

const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 120);
const REAL_EVERY_MS = 2_000;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function withRuntime<T>(
  databaseUrl: string,
  appSecret: string,
  run: (runtime: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>,
): Promise<T> {
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: 'silent' }),
  );
  try {
    return await run(runtime);
  } finally {
    await runtime.store.close();
  }
}

/**
 * How far the notifier is behind in workspace A: the newest lead's received time against the notifier's mark, read
 * on a connection of its own (two cheap index reads).
 */
async function lagProbe(
  db: BenchDatabase,
  workspaceId: string,
): Promise<{ lagMs(): Promise<number>; close(): Promise<void> }> {
  const text = `select (select max(received_at) from leads where workspace_id = $1) as newest,
    (select seen_through from notice_cursors where workspace_id = $1 and kind = 'lead') as mark`;
  const lag = (row: { newest: string | null; mark: string | null } | undefined) =>
    !row?.newest ? 0 : !row.mark ? Infinity : Math.max(0, Date.parse(row.newest) - Date.parse(row.mark));
  if (db.label === 'SQLite') {
    const sqlite = new BetterSqlite3(db.url, { readonly: true, fileMustExist: true });
    const statement = sqlite.prepare(text.replaceAll('$1', '?'));
    return {
      lagMs: async () => lag(statement.get(workspaceId, workspaceId) as { newest: string | null; mark: string | null }),
      close: async () => void sqlite.close(),
    };
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return {
    lagMs: async () =>
      lag((await client.query<{ newest: string | null; mark: string | null }>(text, [workspaceId])).rows[0]),
    close: () => client.end(),
  };
}

async function postLead(url: string, body: Record<string, string>): Promise<{ id: string; at: number }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const at = performance.now();
  if (res.status !== 200) throw new Error(`a real lead answered ${res.status}: ${await res.text()}`);
  return { id: ((await res.json()) as { id: string }).id, at };
}

export async function benchNotifier(
  deps: NotifierBenchDeps,
  db: BenchDatabase,
): Promise<{ throughput: string[]; flood: string[] }> {
  const json = { 'Content-Type': 'application/json' };
  // 1. Saturation, and a backlog.
  const first = await deps.leadscan(db.url);
  const appSecret = first.appSecret;
  let saturation: { rps: number; ok: number };
  try {
    await deps.wrk(`${first.url}/api/intake/${first.token}`, deps.leadFile, json, deps.connections, 2);
    saturation = await deps.wrk(
      `${first.url}/api/intake/${first.token}`,
      deps.leadFile,
      json,
      deps.connections,
      deps.seconds,
    );
  } finally {
    await first.stop();
  }
  const loadAtThroughput = load();
  const throughput = await withRuntime(db.url, appSecret, async (runtime) => {
    const { db: kdb } = runtime.store;
    const workspace = await kdb.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
    const oldest = await kdb
      .selectFrom('leads')
      .select('received_at')
      .orderBy('received_at')
      .limit(1)
      .executeTakeFirstOrThrow();
    const backlog = Number(
      (
        await kdb
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const mark = new Date(Date.parse(oldest.received_at) - 1).toISOString();
    await kdb.deleteFrom('notice_cursors').execute();
    await kdb
      .insertInto('notice_cursors')
      .values([
        { workspace_id: workspace.id, kind: 'lead', seen_through: mark },
        { workspace_id: workspace.id, kind: 'scan', seen_through: mark },
      ])
      .execute();
    const started = performance.now();
    let noticed = 0;
    let looks = 0;
    for (;;) {
      const n = await noticeArrivals(runtime.ctx);
      looks += 1;
      if (n === 0) break;
      noticed += n;
    }
    const seconds = (performance.now() - started) / 1000;
    const pending = Number(
      (
        await kdb
          .selectFrom('notification_pending')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // The backlog's notices are this measurement's, not the flood's: the flood starts with nobody waiting.
    await kdb.deleteFrom('notification_pending').execute();
    return { backlog, noticed, looks, seconds, pending };
  });
  const rate = throughput.noticed / throughput.seconds;
  const throughputRow = [
    db.label,
    fmt(saturation.rps),
    `${fmt(throughput.noticed)} of ${fmt(throughput.backlog)}`,
    `${fmt(throughput.seconds, 2)} s, ${throughput.looks} looks`,
    fmt(rate),
    fmt(rate / saturation.rps, 2),
    `${fmt(throughput.pending)}`,
    loadAtThroughput,
  ];

  // 2. The flood.
  const setup = await withRuntime(db.url, appSecret, async (runtime) => {
    const { ctx } = runtime;
    const a = await ctx.store.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
    const aPipeline = await ctx.store.db
      .selectFrom('pipelines')
      .select('id')
      .where('workspace_id', '=', a.id)
      .executeTakeFirstOrThrow();
    const aQuiet = await createSource({
      ctx: inWorkspace(ctx, a.id),
      input: { pipelineId: aPipeline.id, name: 'Referrals' },
    });
    const b = await createWorkspace({ ctx, input: { name: 'Other Co' } });
    const bPipeline = await createPipeline({ ctx: inWorkspace(ctx, b.id), input: { name: 'Sales' } });
    const bSource = await createSource({
      ctx: inWorkspace(ctx, b.id),
      input: { pipelineId: bPipeline.id, name: 'Website form' },
    });
    await createUser({ ctx, input: { email: 'owner@other.test', workspaceId: b.id, role: 'owner' } });
    return { a: a.id, aQuiet: aQuiet.token, bSource: bSource.token };
  });
  const smtp = await startSmtpSink();
  const arrived: Array<{ at: number; to: string; subject: string; text: string }> = [];
  const stamp = setInterval(() => {
    while (arrived.length < smtp.messages.length) {
      const m = smtp.messages[arrived.length]!;
      arrived.push({
        at: performance.now(),
        to: (m.to as { text: string } | undefined)?.text ?? '',
        subject: m.subject ?? '',
        text: m.text ?? '',
      });
    }
  }, 50);
  const server = await deps.leadscan(db.url, 1, { SMTP_URL: smtp.url, MAIL_FROM: 'Bench <bench@bench.local>' });
  const real: Array<{ id: string; at: number; where: 'A' | 'B' }> = [];
  let floodResult: { rps: number; p99: number; ok: number };
  let floodEnd = 0;
  let caughtUp = NaN;
  const floodStart = performance.now();
  const probe = await lagProbe(db, setup.a);
  let maxLag = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxLag = Math.max(maxLag, await probe.lagMs());
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  try {
    const flood = deps.fixedRate(
      `${server.url}/api/intake/${server.token}`,
      deps.leadFile,
      saturation.rps / 2,
      FLOOD_SECONDS,
    );
    let floodDone = false;
    void flood.finally(() => (floodDone = true));
    for (let i = 0; !floodDone; i += 1) {
      const due = floodStart + i * REAL_EVERY_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      if (floodDone) break;
      const [inA, inB] = await Promise.all([
        postLead(`${server.url}/api/intake/${setup.aQuiet}`, {
          name: `Real Customer A${i}`,
          email: `a${i}@customer.test`,
        }),
        postLead(`${server.url}/api/intake/${setup.bSource}`, {
          name: `Real Customer B${i}`,
          email: `b${i}@customer.test`,
        }),
      ]);
      real.push({ ...inA, where: 'A' }, { ...inB, where: 'B' });
    }
    floodResult = await flood;
    floodEnd = performance.now();
    sampling = false;
    await sampler;
    // Caught up: the notifier's mark at the newest lead of A.
    for (;;) {
      if ((await probe.lagMs()) === 0) {
        caughtUp = (performance.now() - floodEnd) / 1000;
        break;
      }
      if (performance.now() - floodEnd > 300_000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Every real lead's email: at most two batch windows after the flood.
    const deadline = performance.now() + 150_000;
    const emailedAt = (id: string) => arrived.find((m) => m.text.includes(`/leads/${id}`))?.at;
    while (performance.now() < deadline && real.some((r) => emailedAt(r.id) === undefined)) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    sampling = false;
    await probe.close();
    await server.stop();
    clearInterval(stamp);
    await smtp.stop();
  }
  const latencies = (where: 'A' | 'B') =>
    real
      .filter((r) => r.where === where)
      .map((r) => {
        const at = arrived.find((m) => m.text.includes(`/leads/${r.id}`))?.at;
        return at === undefined ? Infinity : (at - r.at) / 1000;
      });
  const all = [...latencies('A'), ...latencies('B')];
  const missing = all.filter((x) => x === Infinity).length;
  const toA = arrived.filter((m) => m.to.includes('admin@localhost') && /new lead/i.test(m.subject));
  const perMinute = new Map<number, number>();
  for (const m of toA) {
    const minute = Math.floor((m.at - floodStart) / 60_000);
    perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
  }
  const biggest =
    toA
      .map((m) => /([\d,]+) new leads?/.exec(m.subject)?.[1] ?? '1')
      .sort((x, y) => Number(y.replace(/,/g, '')) - Number(x.replace(/,/g, '')))[0] ?? '-';
  const floodRow = [
    db.label,
    `${fmt(floodResult.rps)} req/s × ${FLOOD_SECONDS} s (p99 ${fmt(floodResult.p99)} ms)`,
    `${latencies('A').length} + ${latencies('B').length}`,
    `${fmt(percentile(all, 0.5), 1)} / ${fmt(percentile(all, 0.99), 1)} / ${fmt(Math.max(...all), 1)}${missing > 0 ? ` (${missing} never emailed)` : ''}`,
    `${fmt(percentile(latencies('A'), 0.99), 1)} / ${fmt(percentile(latencies('B'), 0.99), 1)}`,
    `${toA.length} (at most ${Math.max(0, ...perMinute.values())} a minute; the largest says ${biggest})`,
    `${fmt(maxLag / 1000, 1)} s`,
    Number.isNaN(caughtUp) ? 'not within 300 s' : `${fmt(caughtUp, 1)} s`,
    load(),
  ];
  return { throughput: throughputRow, flood: floodRow };
}

export const THROUGHPUT_HEADER = [
  'database',
  'intake saturation req/s',
  'leads noticed',
  'time',
  'notifier leads/s',
  'ratio to intake',
  'pending rows made',
  'load average',
];
export const FLOOD_HEADER = [
  'database',
  "flood on A's source (half saturation)",
  'real leads (A + B)',
  'real lead 200 → email s, p50 / p99 / max',
  'p99 A / B s',
  "lead emails to A's owner",
  'notifier lag during the flood, max',
  'caught up after the flood',
  'load average',
];
