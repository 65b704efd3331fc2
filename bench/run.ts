/**
 * `npm run bench`: the write path against its baselines, in one run, every server a real process on loopback and the
 * load generator (wrk) a process of its own, with the same settings for every row.
 *
 *   npm run bench                                   # SQLite rows; PostgreSQL rows too when a server is reachable:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench   (or TEST_DATABASE_URL)
 *   BENCH_SECONDS=8 BENCH_CONNECTIONS=50 BENCH_SCAN_CLIENTS=4
 *   BENCH_ONLY=sqlite|postgres|inbox|scan-page|notifier|quotes|invoices|pdf (one part, or several with commas)
 *   BENCH_FLOOD_SECONDS=120                         (the notifier's flood, bench/notifier.ts)
 *   BENCH_QUOTE_LEADS=1000000 BENCH_QUOTES=100000   (quotes at scale, bench/quotes.ts)
 *   BENCH_INVOICES=100000 BENCH_PAYMENTS=300000     (invoices at scale, bench/invoices.ts)
 *   BENCH_EMAIL=0                                   (leave out the intake rows with email on)
 *   BENCH_READS=0                                   (the open loop without the signed-in admin's reads)
 *
 * Rows: a raw node:http JSON echo (no storage), the durable floor of each database (bench/raw-servers.ts: the
 * cheapest intake that does what a 200 promises, a group commit per event-loop turn) and `leadscan serve` intake on
 * SQLite and PostgreSQL, measured in alternating rounds (echo, floor, Leadscan; BENCH_ROUNDS, 3 by default) against
 * the same running servers, as the median req/s, p50/p99 and the median of each round's ratio to the floor (a
 * background load that changes between rounds moves both sides of a round alike); scan upload MB/s against a raw
 * durable sink (append + fdatasync per body);
 * an open-loop run (bench/open-loop.ts at a fixed rate, its own process) at half the SQLite intake's saturation, for
 * p99, beside the raw echo on the same schedule, while a signed-in admin reads the Leads inbox's first page, a
 * search every lead matches, a search one lead matches and a lead page in turn (their median and p99).
 * After each Leadscan row the stored rows are counted: every 200 must be there.
 * Beside each Leadscan intake and scan upload row, the same server with LEADSCAN_WRITE_PATH=batcher (the hot writes
 * through the generic commit batcher alone, src/storage/batched-hot-writer.ts) on a database of its own, in the same
 * rounds, with its ratio to the hot writers' run of each round: whether the hot writers earn their lines
 * (docs/performance.md, "One write path or two").
 * Each closed-loop row also shows what the whole machine spent (all processes and the kernel, from /proc/stat on
 * Linux) per request and how busy it was: a ratio to the echo is only reachable if the CPU per request allows it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { generateScanExchange, toJsonText } from '../test/fixtures/scan-exchange.js';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';
import { loadConfig } from '../src/config.js';
import { createSession } from '../src/domain/auth/sessions.js';
import { openRuntime } from '../src/runtime.js';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SCAN_CLIENTS = Number(process.env.BENCH_SCAN_CLIENTS ?? 4);
const WARMUP_SECONDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.trim().toLowerCase() || '';
const runs = (part: 'sqlite' | 'postgres' | 'inbox' | 'scan-page' | 'notifier' | 'quotes' | 'invoices' | 'pdf') =>
  ONLY === '' || ONLY.split(',').includes(part);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-'));

const LEAD = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  address: '12 St James’s Square, London SW1Y 4JH',
  notes: `Kitchen refit, about 12 m². ${'Please call after 5 pm on weekdays; the side door is easier. '.repeat(12)}`,
  source: 'landing-page-b',
});

interface Proc {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

function start(args: string[], env: Record<string, string>, ready: (out: string) => boolean): Promise<Proc> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let done = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url && ready(out) && !done) {
        done = true;
        resolve({
          child,
          url,
          output: () => out,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => {
      if (!done) reject(new Error(`${args.join(' ')} exited before listening:\n${out}`));
    });
  });
}

const rawServer = (mode: 'echo' | 'sink' | 'floor-sqlite' | 'floor-postgres', target = '') =>
  start(['--import', 'tsx', path.join(ROOT, 'bench/raw-servers.ts'), mode, target], {}, () => true);

async function leadscan(databaseUrl: string, workers = 1, extraEnv: Record<string, string> = {}) {
  const appSecret = crypto.randomBytes(32).toString('base64url');
  const proc = await start(
    [path.join(ROOT, 'bin/leadscan.js'), 'serve', ...(workers > 1 ? ['--workers', String(workers)] : [])],
    {
      DATABASE_URL: databaseUrl,
      APP_SECRET: appSecret,
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_BASE_URL: 'http://bench.local',
      LOG_LEVEL: 'warn',
      INTAKE_RATE_LIMIT: '0',
      SCAN_RATE_LIMIT: '0',
      ...extraEnv,
    },
    (out) =>
      /\/api\/intake\/[0-9a-f-]{36}/.test(out) &&
      (!out.includes('First start') || /x-scan-key: (\S+)'/.test(out)) &&
      (workers === 1 || out.includes('Serving with')),
  );
  const token = /\/api\/intake\/([0-9a-f-]{36})/.exec(proc.output())![1]!;
  // Printed on the first start only.
  const key = /x-scan-key: (\S+)'/.exec(proc.output())?.[1] ?? '';
  return { ...proc, token, key, appSecret };
}

/** One lead a search finds alone: every other bench lead is the same Ada Lovelace. */
const NEEDLE = { name: 'Philippa Fawcett-Quennell', email: 'p.fawcett@example.org' };

/** Posts the needle lead; it is answered 200 and stored like any other. */
async function postNeedle(intakeUrl: string): Promise<void> {
  const res = await fetch(intakeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(NEEDLE),
  });
  if (res.status !== 200) throw new Error(`the needle lead answered ${res.status}`);
}

/**
 * A signed-in admin's reads while intake runs: a session made for the first-start owner on the server's database
 * (as the sign-in page would), then the Leads inbox's first page, a search every lead matches, a search one lead
 * matches (the needle, posted before) and the newest lead's page, each in turn,
 * every 50 ms until `until` settles. Each must answer 200; returns each one's latencies in ms.
 */
async function adminReads(baseUrl: string, databaseUrl: string, appSecret: string, until: Promise<unknown>) {
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: 'silent' }),
  );
  let cookie: string;
  let paths: Record<'inbox page' | 'search, every lead matches' | 'search, one match' | 'lead page', string>;
  try {
    const { db } = runtime.store;
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@localhost')
      .executeTakeFirstOrThrow();
    const workspace = await db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
    const lead = await db
      .selectFrom('leads')
      .select('id')
      .orderBy('received_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    cookie = `leadscan_session=${(await createSession({ ctx: runtime.ctx, input: { userId: user.id } })).sessionId}`;
    const w = `/w/${workspace.id}/leads`;
    paths = {
      'inbox page': w,
      'search, every lead matches': `${w}?q=lovelace`,
      'search, one match': `${w}?q=${encodeURIComponent(NEEDLE.name)}`,
      'lead page': `${w}/${lead.id}`,
    };
  } finally {
    await runtime.store.close();
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    for (const [name, p] of Object.entries(paths)) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}${p}`, { headers: { cookie }, redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
      times[name]!.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return times;
}

/**
 * Samples, every 200 ms until `until` settles, how many stored leads the SQLite search index (src/storage/search-index.ts)
 * has not indexed yet: the leads every search must check apart. Returns the largest and the last sample.
 */
async function searchBacklog(databaseFile: string, until: Promise<unknown>): Promise<{ max: number; last: number }> {
  const db = new BetterSqlite3(databaseFile, { readonly: true, fileMustExist: true });
  let max = 0;
  let last = 0;
  let done = false;
  void until.finally(() => (done = true));
  try {
    db.exec(`attach database '${`${databaseFile}-search`.replaceAll("'", "''")}' as search`);
    const backlog = db
      .prepare('select (select count(*) from leads where rowid > (select indexed_upto from search.state))')
      .pluck();
    while (!done) {
      try {
        last = backlog.get() as number;
        max = Math.max(max, last);
      } catch {
        // The index file is being created or rebuilt: try at the next sample.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    db.close();
  }
  return { max, last };
}

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  ok: number;
  /** The whole machine during the run (null where /proc/stat is not there): CPU seconds spent, and busy share. */
  machine: { cpuSeconds: number; busy: number } | null;
}

/** The machine's busy share between two readings, and the CPU seconds that is over `wallSeconds`. */
function machineUse(
  before: ReturnType<typeof cpuTicks>,
  after: ReturnType<typeof cpuTicks>,
  wallSeconds: number,
): WrkResult['machine'] {
  if (!before || !after || after.total <= before.total) return null;
  const busy = (after.busy - before.busy) / (after.total - before.total);
  return { busy, cpuSeconds: busy * os.cpus().length * wallSeconds };
}

/** The aggregate `cpu` line of /proc/stat: busy and total ticks (idle and iowait are not busy). */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const fields = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1, 11)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3]! - fields[4]!, total };
  } catch {
    return null;
  }
}

/** wrk, one thread, POSTing `bodyFile`; counts the 200s itself (a Lua response hook, the same for every row). */
async function wrk(
  url: string,
  bodyFile: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<WrkResult> {
  const script = path.join(TMP, `wrk-${crypto.randomBytes(4).toString('hex')}.lua`);
  fs.writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      `local f = io.open(${JSON.stringify(bodyFile)}, "rb")`,
      'wrk.body = f:read("*a")',
      'f:close()',
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
      'ok = 0',
      'local threads = {}',
      'function setup(thread) table.insert(threads, thread) end',
      'function response(status, headers, body) if status == 200 then ok = ok + 1 end end',
      'function done(summary, latency, requests)',
      '  local n = 0',
      '  for _, t in ipairs(threads) do n = n + t:get("ok") end',
      '  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), n))',
      'end',
    ].join('\n'),
  );
  const before = cpuTicks();
  const started = performance.now();
  const { stdout, stderr } = await execFileAsync('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    url,
  ]);
  const wallSeconds = (performance.now() - started) / 1000;
  const machine = machineUse(before, cpuTicks(), wallSeconds);
  const out = stdout + stderr;
  const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out);
  if (!m) throw new Error(`wrk said:\n${out}`);
  const [requests, durationUs, p50, p99, ok] = m.slice(1).map(Number) as [number, number, number, number, number];
  return { rps: requests / (durationUs / 1e6), p50: p50 / 1000, p99: p99 / 1000, requests, ok, machine };
}

/** bench/open-loop.ts at a fixed rate, in its own process: latency from each request's due time (wrk2-style). */
async function fixedRate(
  url: string,
  bodyFile: string,
  rate: number,
  seconds: number,
): Promise<{ p50: number; p90: number; p99: number; rps: number; ok: number }> {
  const args = [
    '--import',
    'tsx',
    path.join(ROOT, 'bench/open-loop.ts'),
    url,
    bodyFile,
    String(Math.round(rate)),
    String(seconds),
    String(CONNECTIONS),
  ];
  const { stdout } = await execFileAsync(process.execPath, args, { cwd: ROOT });
  return JSON.parse(stdout) as { p50: number; p90: number; p99: number; rps: number; ok: number };
}

interface Database {
  label: string;
  url: string;
  count(table: 'leads' | 'scans' | 'noticed'): Promise<number>;
  drop(): Promise<void>;
}

function sqliteDatabase(): Database {
  const file = path.join(TMP, `bench-${crypto.randomBytes(4).toString('hex')}.sqlite`);
  return {
    label: 'SQLite',
    url: file,
    count: async (table) => {
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    drop: async () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    },
  };
}

async function postgresDatabase(adminUrl: string): Promise<Database | null> {
  const name = `leadscan_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: text.startsWith('drop') ? adminUrl : url.toString() });
    await client.connect();
    try {
      return await client.query<{ n: number }>(text);
    } finally {
      await client.end();
    }
  };
  return {
    label: 'PostgreSQL',
    url: url.toString(),
    count: async (table) => (await query(`select count(*)::int as n from ${table}`)).rows[0]!.n,
    drop: async () => void (await query(`drop database if exists ${name} with (force)`)),
  };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** The machine's CPU per request (in `unit`s: 1e6 for µs, 1e3 for ms) and how busy it was, as table cells. */
function machineCells(r: WrkResult, unit: number, per = r.requests): [string, string] {
  if (!r.machine) return ['-', '-'];
  return [fmt((r.machine.cpuSeconds * unit) / per, unit === 1e6 ? 0 : 1), `${fmt(r.machine.busy * 100)}%`];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * Stored beyond what was answered 200 that is no fault: each wrk run (a warm-up and a measured run per round) stops
 * with up to one request per connection sent and stored but not counted as answered.
 */
const IN_FLIGHT_AT_STOP = 2 * ROUNDS * CONNECTIONS;

function storedCheck(stored: number, acknowledged: number, slack: number): string {
  if (stored < acknowledged) return `LOST ${acknowledged - stored}`;
  if (stored > acknowledged + slack) return `EXTRA ${stored - acknowledged}`;
  return 'ok';
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** `BENCH_READS=0` leaves the signed-in admin's reads out of the open loop (to see what they cost intake). */
const ADMIN_READS = process.env.BENCH_READS?.trim() !== '0';

/** `BENCH_EMAIL=0` leaves out the rows with email on. */
const EMAIL_ROWS = process.env.BENCH_EMAIL?.trim() !== '0';
const intakeRows: string[][] = [];
const emailNotes: string[] = [];
let leadFileForEcho = '';

async function echoRun(): Promise<WrkResult> {
  const echo = await rawServer('echo');
  try {
    await wrk(echo.url, leadFileForEcho, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS);
    const raw = await wrk(echo.url, leadFileForEcho, JSON_HEADERS, CONNECTIONS, SECONDS);
    intakeRows.push([
      'raw node:http JSON echo',
      fmt(raw.rps),
      fmt(raw.p50, 2),
      fmt(raw.p99, 2),
      '1.00',
      '-',
      ...machineCells(raw, 1e6),
      '-',
      '-',
    ]);
    return raw;
  } finally {
    await echo.stop();
  }
}

/** A Leadscan intake row: its run, the ratio to the echo run just before it, and whether every 200 was stored. */
function intakeRow(label: string, r: WrkResult, raw: WrkResult, stored: number, acknowledged: number): string[] {
  return [
    label,
    fmt(r.rps),
    fmt(r.p50, 2),
    fmt(r.p99, 2),
    fmt(r.rps / raw.rps, 2),
    '-',
    ...machineCells(r, 1e6),
    `${r.requests - r.ok}`,
    `${storedCheck(stored, acknowledged, 3 * CONNECTIONS)} (${stored} stored, ${acknowledged} answered 200)`,
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of a server's rounds, and its ratios to the echo and to the floor of the same round. */
function roundsRow(
  label: string,
  runs: WrkResult[],
  echo: WrkResult[],
  floor: WrkResult[] | null,
  stored: string,
): string[] {
  const m = (pick: (r: WrkResult) => number) => median(runs.map(pick));
  const toFloor = floor ? runs.map((r, i) => r.rps / floor[i]!.rps) : null;
  const cpu = runs.every((r) => r.machine) ? fmt(m((r) => (r.machine!.cpuSeconds * 1e6) / r.requests)) : '-';
  const busy = runs.every((r) => r.machine) ? `${fmt(m((r) => r.machine!.busy) * 100)}%` : '-';
  return [
    label,
    fmt(m((r) => r.rps)),
    fmt(
      m((r) => r.p50),
      2,
    ),
    fmt(
      m((r) => r.p99),
      2,
    ),
    fmt(median(runs.map((r, i) => r.rps / echo[i]!.rps)), 2),
    toFloor
      ? `${fmt(median(toFloor), 2)} (${toFloor.map((x) => fmt(x, 2)).join(', ')})`
      : label.includes('floor')
        ? '1.00'
        : '-',
    cpu,
    busy,
    `${runs.reduce((n, r) => n + r.requests - r.ok, 0)}`,
    stored,
  ];
}

/**
 * The echo, the durable floor of `db`'s kind (its own database, `floorDb`) and Leadscan on `db`, in alternating
 * rounds against the same running servers (each warmed up once). Leadscan's server is left running for the caller.
 */
async function intakeRounds(db: Database, floorDb: Database, batcherDb: Database, leadFile: string) {
  const echo = await rawServer('echo');
  const floor = await rawServer(db.label === 'SQLite' ? 'floor-sqlite' : 'floor-postgres', floorDb.url);
  const server = await leadscan(db.url);
  const url = `${server.url}/api/intake/${server.token}`;
  const batcher = await leadscan(batcherDb.url, 1, BATCHER_ENV);
  const batcherUrl = `${batcher.url}/api/intake/${batcher.token}`;
  const runs = {
    echo: [] as WrkResult[],
    floor: [] as WrkResult[],
    leadscan: [] as WrkResult[],
    batcher: [] as WrkResult[],
  };
  let floorOk = 0;
  let leadscanOk = 0;
  let batcherOk = 0;
  try {
    await wrk(echo.url, leadFile, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS);
    floorOk += (await wrk(floor.url, leadFile, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS)).ok;
    leadscanOk += (await wrk(url, leadFile, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS)).ok;
    batcherOk += (await wrk(batcherUrl, leadFile, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS)).ok;
    for (let round = 0; round < ROUNDS; round += 1) {
      runs.echo.push(await wrk(echo.url, leadFile, JSON_HEADERS, CONNECTIONS, SECONDS));
      const f = await wrk(floor.url, leadFile, JSON_HEADERS, CONNECTIONS, SECONDS);
      runs.floor.push(f);
      floorOk += f.ok;
      const l = await wrk(url, leadFile, JSON_HEADERS, CONNECTIONS, SECONDS);
      runs.leadscan.push(l);
      leadscanOk += l.ok;
      const b = await wrk(batcherUrl, leadFile, JSON_HEADERS, CONNECTIONS, SECONDS);
      runs.batcher.push(b);
      batcherOk += b.ok;
    }
  } catch (error) {
    await server.stop();
    await batcher.stop();
    throw error;
  } finally {
    await echo.stop();
    await floor.stop();
  }
  const floorStored = await floorDb.count('leads');
  intakeRows.push(roundsRow('raw node:http JSON echo', runs.echo, runs.echo, null, '-'));
  intakeRows.push(
    roundsRow(
      `durable floor, ${db.label}`,
      runs.floor,
      runs.echo,
      null,
      `${storedCheck(floorStored, floorOk, IN_FLIGHT_AT_STOP)} (${floorStored} stored, ${floorOk} answered 200)`,
    ),
  );
  return { server, url, runs, leadscanOk, batcher, batcherOk };
}

/** `serve` with the hot writes through the commit batcher alone (src/storage/batched-hot-writer.ts). */
const BATCHER_ENV = { LEADSCAN_WRITE_PATH: 'batcher' };

/** Each round's commit-batcher run over the hot writers' run of the same round, then their median. */
const writePathNotes: string[] = [];
function writePathNote(what: string, hot: WrkResult[], batcher: WrkResult[]): void {
  const ratios = batcher.map((b, i) => b.rps / hot[i]!.rps);
  const rps = (runs: WrkResult[]) => fmt(median(runs.map((r) => r.rps)));
  writePathNotes.push(
    `${what}: hot writers ${rps(hot)} req/s, commit batcher only ${rps(batcher)} req/s (medians); ` +
      `commit batcher only / hot writers ${fmt(median(ratios), 2)} (rounds: ${ratios.map((x) => fmt(x, 2)).join(', ')})`,
  );
}

/**
 * The intake again, with email on: a fresh database of the same kind, `serve` with SMTP_URL pointing at an SMTP
 * server on loopback (smtp-server, in this process), and the first-start owner choosing each new lead, so the
 * notifier notices and mails every lead while wrk posts. Its ratio to the echo run just before it, next to the row
 * without email, is what email notifications cost the intake.
 */
async function emailOnRow(make: () => Promise<Database | null>, leadFile: string): Promise<string> {
  const db = await make();
  if (!db) return '';
  const smtp = await startSmtpSink();
  try {
    const raw = await echoRun();
    const server = await leadscan(db.url, 1, { SMTP_URL: smtp.url, MAIL_FROM: 'Bench <bench@bench.local>' });
    const url = `${server.url}/api/intake/${server.token}`;
    const warm = await wrk(url, leadFile, JSON_HEADERS, CONNECTIONS, WARMUP_SECONDS);
    const r = await wrk(url, leadFile, JSON_HEADERS, CONNECTIONS, SECONDS);
    await server.stop();
    const stored = await db.count('leads');
    const acknowledged = warm.ok + r.ok;
    intakeRows.push(intakeRow(`Leadscan intake, ${db.label}, email on`, r, raw, stored, acknowledged));
    const noticed = await db.count('noticed');
    return `${db.label}, email on: ${noticed} of ${stored} leads noticed by the notifier before the server stopped, ${smtp.messages.length} email${smtp.messages.length === 1 ? '' : 's'} sent (at most one a minute per person; the rest wait for the next ones)`;
  } finally {
    await smtp.stop();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const leadFile = path.join(TMP, 'lead.json');
  fs.writeFileSync(leadFile, LEAD);
  leadFileForEcho = leadFile;
  const scanBody = Buffer.from(
    toJsonText(generateScanExchange({ seed: 7, rooms: 8, meshBytes: 118_000 }), { style: 'varied', seed: 7 }),
  );
  const scanFile = path.join(TMP, 'scan.json');
  fs.writeFileSync(scanFile, scanBody);
  const json = { 'Content-Type': 'application/json' };
  const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();

  const databases: Array<() => Promise<Database | null>> = [];
  if (runs('sqlite')) databases.push(async () => sqliteDatabase());
  if (adminUrl && runs('postgres')) databases.push(() => postgresDatabase(adminUrl));

  // The machine may be shared: every Leadscan row is measured right after its own baseline run, and its ratio is
  // to that run, so a change in background load between rows moves both sides alike.
  const scanRows: string[][] = [];
  let sqliteRps = 0;
  let sqliteUrl = '';
  const mbps = (r: WrkResult) => (r.rps * scanBody.length) / 1e6;
  const megabytes = (r: WrkResult) => (r.requests * scanBody.length) / 1e6;
  const sinkRun = async () => {
    const sinkFile = path.join(TMP, 'sink.bin');
    const sink = await rawServer('sink', sinkFile);
    try {
      await wrk(sink.url, scanFile, json, SCAN_CLIENTS, WARMUP_SECONDS);
      const rawSink = await wrk(sink.url, scanFile, json, SCAN_CLIENTS, SECONDS);
      scanRows.push([
        'raw durable sink (append + fdatasync)',
        fmt(mbps(rawSink), 1),
        fmt(rawSink.p50, 1),
        fmt(rawSink.p99, 1),
        '1.00',
        ...machineCells(rawSink, 1e3, megabytes(rawSink)),
        '-',
      ]);
      return rawSink;
    } finally {
      await sink.stop();
      fs.rmSync(sinkFile, { force: true });
    }
  };

  let openLoop = '';
  for (const make of databases) {
    const db = await make();
    if (!db) continue;
    const floorDb = (await make())!;
    const batcherDb = (await make())!;
    try {
      const { server, url, runs, leadscanOk, batcher, batcherOk } = await intakeRounds(
        db,
        floorDb,
        batcherDb,
        leadFile,
      );
      let acknowledged = leadscanOk;
      if (db.label === 'SQLite') {
        sqliteRps = median(runs.leadscan.map((r) => r.rps));
        sqliteUrl = url;
        const rate = sqliteRps / 2;
        await postNeedle(url);
        acknowledged += 1;
        const openLoopRun = fixedRate(sqliteUrl, leadFile, rate, SECONDS);
        const backlog = searchBacklog(db.url, openLoopRun);
        const reads = ADMIN_READS ? await adminReads(server.url, db.url, server.appSecret, openLoopRun) : {};
        const o = await openLoopRun;
        const { max: backlogMax, last: backlogLast } = await backlog;
        acknowledged += o.ok;
        const p99 = (xs: number[]) =>
          [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.99 * xs.length))]!;
        const readLines = Object.entries(reads).map(
          ([name, xs]) =>
            `  meanwhile, signed in, ${name}: ${xs.length} requests, median ${fmt(median(xs), 1)} ms, p99 ${fmt(p99(xs), 1)} ms`,
        );
        // The same schedule against the raw echo: the floor this machine and generator give any server.
        const echo = await rawServer('echo');
        const floor = await fixedRate(echo.url, leadFile, rate, SECONDS).finally(() => echo.stop());
        openLoop =
          `a fixed ${fmt(rate)} req/s (half of SQLite intake's ${fmt(sqliteRps)}), bench/open-loop.ts, up to ${CONNECTIONS} connections, ` +
          `latency from each request's due time:\n` +
          `  Leadscan intake, SQLite: achieved ${fmt(o.rps)} req/s, p50 ${o.p50} ms, p90 ${o.p90} ms, p99 ${o.p99} ms\n` +
          `${readLines.join('\n')}\n` +
          `  leads not yet in the search index (sampled every 200 ms): at most ${backlogMax}, ${backlogLast} at the end\n` +
          `  raw node:http JSON echo: achieved ${fmt(floor.rps)} req/s, p50 ${floor.p50} ms, p90 ${floor.p90} ms, p99 ${floor.p99} ms`;
      }
      const stored = await db.count('leads');
      intakeRows.push(
        roundsRow(
          `Leadscan intake, ${db.label}`,
          runs.leadscan,
          runs.echo,
          runs.floor,
          `${storedCheck(stored, acknowledged, IN_FLIGHT_AT_STOP)} (${stored} stored, ${acknowledged} answered 200)`,
        ),
      );

      const batcherStored = await batcherDb.count('leads');
      intakeRows.push(
        roundsRow(
          `Leadscan intake, ${db.label}, commit batcher only`,
          runs.batcher,
          runs.echo,
          runs.floor,
          `${storedCheck(batcherStored, batcherOk, IN_FLIGHT_AT_STOP)} (${batcherStored} stored, ${batcherOk} answered 200)`,
        ),
      );
      writePathNote(`intake, ${db.label}`, runs.leadscan, runs.batcher);

      const uploadKey = server.key;
      const batcherKey = batcher.key;
      await server.stop();
      await batcher.stop();
      if (EMAIL_ROWS) emailNotes.push(await emailOnRow(make, leadFile));
      const rawSink = await sinkRun();
      // The hot writers and the commit batcher alone in alternating rounds, each on its own database.
      const paths = [
        { label: `Leadscan scan upload, ${db.label}`, db, key: uploadKey, env: {} },
        {
          label: `Leadscan scan upload, ${db.label}, commit batcher only`,
          db: batcherDb,
          key: batcherKey,
          env: BATCHER_ENV,
        },
      ];
      const scanRuns: WrkResult[][] = [[], []];
      const scanOk = [0, 0];
      const scanServers = await Promise.all(paths.map((p) => leadscan(p.db.url, 1, p.env)));
      try {
        const scanUrls = scanServers.map((server) => `${server.url}/api/scan/upload`);
        const keys = paths.map((p) => ({ ...json, 'x-scan-key': p.key }));
        for (let i = 0; i < paths.length; i += 1)
          scanOk[i]! += (await wrk(scanUrls[i]!, scanFile, keys[i]!, SCAN_CLIENTS, WARMUP_SECONDS)).ok;
        for (let round = 0; round < ROUNDS; round += 1) {
          for (let i = 0; i < paths.length; i += 1) {
            const r = await wrk(scanUrls[i]!, scanFile, keys[i]!, SCAN_CLIENTS, SECONDS);
            scanRuns[i]!.push(r);
            scanOk[i]! += r.ok;
          }
        }
      } finally {
        await Promise.all(scanServers.map((server) => server.stop()));
      }
      for (let i = 0; i < paths.length; i += 1) {
        const runsOf = scanRuns[i]!;
        const s = runsOf.find((r) => r.rps === median(runsOf.map((x) => x.rps))) ?? runsOf[0]!;
        const scans = await paths[i]!.db.count('scans');
        scanRows.push([
          paths[i]!.label,
          fmt(median(runsOf.map(mbps)), 1),
          fmt(median(runsOf.map((r) => r.p50)), 1),
          fmt(median(runsOf.map((r) => r.p99)), 1),
          fmt(median(runsOf.map(mbps)) / mbps(rawSink), 2),
          ...machineCells(s, 1e3, megabytes(s)),
          `${storedCheck(scans, scanOk[i]!, (1 + ROUNDS) * SCAN_CLIENTS)} (${scans} stored, ${scanOk[i]} answered 200)`,
        ]);
      }
      writePathNote(`scan upload, ${db.label}`, scanRuns[0]!, scanRuns[1]!);
    } finally {
      await db.drop();
      await floorDb.drop();
      await batcherDb.drop();
    }
  }

  const lines = [
    `== intake: POST a ${LEAD.length}-byte JSON lead; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s after a ${WARMUP_SECONDS} s warm-up, same settings every row;`,
    `   echo, floor and Leadscan in ${ROUNDS} alternating rounds (medians; the ratios are each round's, then their median); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end`,
    table(
      [
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'ratio to echo',
        'ratio to floor (rounds)',
        'machine CPU µs/request',
        'machine busy',
        'non-200',
        'every 200 stored',
      ],
      intakeRows,
    ),
    '',
    ...(emailNotes.filter(Boolean).length > 0 ? [...emailNotes.filter(Boolean), ''] : []),
    `== scan upload: ${(scanBody.length / 1e6).toFixed(2)} MB bodies (8 rooms); wrk -t1 -c${SCAN_CLIENTS} -d${SECONDS}s, ${ROUNDS} alternating rounds of the two write paths (medians)`,
    table(
      [
        'server',
        'MB/s',
        'p50 ms',
        'p99 ms',
        'ratio to the sink run above',
        'machine CPU ms/MB',
        'machine busy',
        'every 200 stored',
      ],
      scanRows,
    ),
    '',
    `== write path: the hot writers against the commit batcher alone (LEADSCAN_WRITE_PATH=batcher), same rounds`,
    ...writePathNotes.map((note) => `  ${note}`),
    '',
    `== open loop: ${openLoop || 'skipped'}`,
    '',
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; servers and load generator on this machine (loopback).`,
    'Every Leadscan 200 is answered after COMMIT: SQLite WAL synchronous=FULL, PostgreSQL synchronous_commit=on.',
  ];
  if (!adminUrl) lines.push('PostgreSQL rows skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include them.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  if (runs('sqlite') || runs('postgres')) await main();
  if (runs('inbox')) {
    // The Leads inbox at BENCH_LEADS leads (100,000 by default): list, search, unread counts, a start, and export,
    // in-process on SQLite; list, search and unread counts on PostgreSQL when a server is reachable.
    const { benchInbox } = await import('./inbox.js');
    const leads = Number(process.env.BENCH_LEADS ?? 100_000).toLocaleString('en');
    process.stdout.write(
      `\n== Leads inbox and CSV export at ${leads} leads (load average ${os.loadavg()[0]!.toFixed(2)})\n${await benchInbox()}\n`,
    );
    const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
    if (adminUrl) process.stdout.write(`${await benchInbox('postgres', adminUrl)}\n`);
  }
  if (runs('scan-page')) {
    // How long /healthz waits while two people open a 500-room, 600-walls-a-room scan's page (bench/scan-page.ts).
    const { benchScanPage } = await import('./scan-page.js');
    process.stdout.write(
      `\n== A big scan's page, SQLite (load average ${os.loadavg()[0]!.toFixed(2)})\n${await benchScanPage()}\n`,
    );
  }
  if (runs('notifier')) {
    // The notifier against intake's saturation rate, and a real lead's email through a flood (bench/notifier.ts).
    const { benchNotifier, THROUGHPUT_HEADER, FLOOD_HEADER } = await import('./notifier.js');
    const leadFile = path.join(TMP, 'notifier-lead.json');
    fs.writeFileSync(leadFile, LEAD);
    const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
    const throughput: string[][] = [];
    const flood: string[][] = [];
    for (const make of [async () => sqliteDatabase(), ...(adminUrl ? [() => postgresDatabase(adminUrl)] : [])]) {
      const db = await make();
      if (!db) continue;
      try {
        const rows = await benchNotifier(
          { seconds: SECONDS, connections: CONNECTIONS, leadFile, leadscan, wrk, fixedRate },
          db,
        );
        throughput.push(rows.throughput);
        flood.push(rows.flood);
      } finally {
        await db.drop();
      }
    }
    process.stdout.write(
      `\n== Notifier throughput: a backlog of what intake stored at saturation (wrk -c${CONNECTIONS} -d${SECONDS}s), turned into pending notices\n` +
        `${table(THROUGHPUT_HEADER, throughput)}\n\n== A real lead through a flood (real SMTP on loopback; a real lead every 2 s to A's other source and to workspace B)\n` +
        `${table(FLOOD_HEADER, flood)}\n`,
    );
  }
  if (runs('quotes')) {
    // Quotes at 1,000,000 leads and 100,000 quotes (bench/quotes.ts): the Quotes screen, the customer's page, a
    // 300-line draft's line changed, a Send, the Report and its baseline.
    const { benchQuotes } = await import('./quotes.js');
    process.stdout.write(`\n== Quotes at scale\n${await benchQuotes('sqlite')}\n`);
    const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
    if (adminUrl) process.stdout.write(`${await benchQuotes('postgres', adminUrl)}\n`);
  }
  if (runs('invoices')) {
    // Invoices at 100,000 invoices and 300,000 payments (bench/invoices.ts): the Invoices screen and its filters, the
    // outstanding totals and their plain-SQL baseline, an invoice's page, the customer's page, the accountant's export.
    const { benchInvoices } = await import('./invoices.js');
    process.stdout.write(`\n== Invoices at scale\n${await benchInvoices('sqlite')}\n`);
    const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
    if (adminUrl) process.stdout.write(`${await benchInvoices('postgres', adminUrl)}\n`);
  }
  if (runs('pdf')) {
    // PDFs (bench/pdf.ts): render times through the worker pool, and /healthz beside 20 renders at once.
    const { benchPdf } = await import('./pdf.js');
    process.stdout.write(`\n== PDFs\n${await benchPdf()}\n`);
  }
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}
