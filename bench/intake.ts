/**
 * Intake throughput, SQLite and PostgreSQL side by side in one run: autocannon against a real `leadscan serve`
 * process (loopback, rate limit off), the same fixed connection count and duration for each. Every 200 is a lead
 * durably committed (group commit); the stored count is read back to show that. The writer's batch sizes come from
 * the summary line each server process prints when it stops.
 *
 *   node --import tsx bench/intake.ts
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres …
 *
 * PostgreSQL rows run when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server where a database may be created.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonOptions {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const BIN = path.resolve(import.meta.dirname, '../bin/leadscan.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Target {
  label: string;
  databaseUrl: string;
  workers: number;
  countLeads(): Promise<number>;
  drop(): Promise<void>;
}

interface Row {
  label: string;
  result: AutocannonResult;
  stored: number;
  acknowledged: number;
  writer: { writes: number; commits: number; largest: number };
}

function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-intake-'));
  const file = path.join(dir, 'bench.sqlite');
  return {
    label: 'SQLite (1 process)',
    databaseUrl: file,
    workers: 1,
    countLeads: async () => {
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        return (db.prepare('select count(*) as n from leads').get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(adminUrl: string, workers: number): Promise<Target> {
  const name = `leadscan_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: workers > 1 ? `PostgreSQL (${workers} workers)` : 'PostgreSQL (1 process)',
    databaseUrl: url.toString(),
    workers,
    countLeads: async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<{ n: number }>('select count(*)::int as n from leads')).rows[0]!.n;
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

interface Server {
  child: ChildProcess;
  url: string;
  token: string;
  output(): string;
  exited: Promise<number | null>;
}

function startServer(target: Target): Promise<Server> {
  const args = ['serve', ...(target.workers > 1 ? ['--workers', String(target.workers)] : [])];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: target.databaseUrl,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_BASE_URL: 'http://bench.local',
      LOG_LEVEL: 'warn',
      INTAKE_RATE_LIMIT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let done = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const token = /\/api\/intake\/([0-9a-f-]{36})/.exec(out)?.[1];
      // With workers the banner ends with the "Serving with" line; wait for the whole banner.
      const complete = target.workers === 1 || out.includes('Serving with');
      if (url && token && complete && !done) {
        done = true;
        resolve({ child, url, token, output: () => out, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      if (!done) reject(new Error(`leadscan serve exited ${code} before listening:\n${out}`));
    });
  });
}

function writerStats(output: string): Row['writer'] {
  const stats = { writes: 0, commits: 0, largest: 0 };
  for (const match of output.matchAll(/writer committed (\d+) writes in (\d+) transactions \(mean batch [\d.]+, largest (\d+)\)/g)) {
    stats.writes += Number(match[1]);
    stats.commits += Number(match[2]);
    stats.largest = Math.max(stats.largest, Number(match[3]));
  }
  return stats;
}

async function measure(target: Target): Promise<Row> {
  const server = await startServer(target);
  try {
    const base = {
      url: `${server.url}/api/intake/${server.token}`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958', notes: 'Kitchen refit, 12 m²' }),
      connections: CONNECTIONS,
    };
    const warmup = await autocannon({ ...base, duration: 1 });
    const result = await autocannon({ ...base, duration: SECONDS });
    server.child.kill('SIGTERM');
    const code = await server.exited;
    if (code !== 0) throw new Error(`leadscan serve exited ${code}:\n${server.output()}`);
    return {
      label: target.label,
      result,
      stored: await target.countLeads(),
      acknowledged: warmup['2xx'] + result['2xx'],
      writer: writerStats(server.output()),
    };
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
}

/**
 * Every acknowledged lead must be stored. A few more may be: requests in flight when autocannon stops its clock
 * (at most one per connection per run) are committed but not counted.
 */
function storedCheck(r: Row): string {
  if (r.stored < r.acknowledged) return `LOST ${r.acknowledged - r.stored} of ${r.acknowledged}`;
  if (r.stored > r.acknowledged + 2 * CONNECTIONS) return `EXTRA ${r.stored - r.acknowledged}`;
  return `ok (${r.stored} >= ${r.acknowledged})`;
}

function table(rows: Row[]): string {
  const header = ['backend', 'req/s', 'p50 ms', 'p99 ms', '200s', 'non-200', 'errors', 'stored vs 200s', 'commits', 'mean batch', 'largest batch'];
  const lines = rows.map((r) => [
    r.label,
    r.result.requests.average.toFixed(0),
    String(r.result.latency.p50),
    String(r.result.latency.p99),
    String(r.result['2xx']),
    String(r.result.non2xx),
    String(r.result.errors + r.result.timeouts),
    storedCheck(r),
    String(r.writer.commits),
    r.writer.commits ? (r.writer.writes / r.writer.commits).toFixed(1) : '-',
    String(r.writer.largest),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

export async function benchIntake(): Promise<string> {
  const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
  const targets: Array<() => Promise<Target>> = [async () => sqliteTarget()];
  if (adminUrl) targets.push(() => postgresTarget(adminUrl, 1), () => postgresTarget(adminUrl, 2));
  const rows: Row[] = [];
  for (const make of targets) {
    const target = await make();
    try {
      rows.push(await measure(target));
    } finally {
      await target.drop();
    }
  }
  const notes = [
    `POST /api/intake/{token} (JSON, 4 fields), ${CONNECTIONS} connections, ${SECONDS} s each after a 1 s warm-up;`,
    `${os.cpus().length} CPU(s), Node ${process.version}, server and load generator on the same machine (loopback).`,
    'Every 200 is answered after COMMIT (SQLite WAL synchronous=FULL; PostgreSQL synchronous_commit=on);',
    '"stored vs 200s" counts leads after the run: every 200 is there (plus requests still in flight when the clock stopped).',
    'commits/mean/largest batch: transactions of the group-commit writer, from each server process\'s stop line.',
  ];
  if (!adminUrl) notes.push('PostgreSQL rows skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include them.');
  return `${table(rows)}\n${notes.join('\n')}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${await benchIntake()}\n`);
}
