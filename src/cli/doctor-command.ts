import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { systemClock } from '../domain/context.js';
import { latestServer } from '../domain/server-instances/server-record.js';
import { reasonOf } from '../runtime.js';
import { openDatabase, type Database } from '../storage/database.js';
import { migrationProvider } from '../storage/migrations/index.js';
import { redactedUrl } from '../storage/redact-url.js';
import { writeProblemOf } from '../storage/write-probe.js';
import { searchIndexFile } from '../storage/search-index.js';
import { positiveInteger, type CliKit } from './kit.js';

export interface DoctorCheck {
  check: string;
  ok: boolean;
  /** One line: what was found, and when not ok, what to fix. */
  detail: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/** Backups older than this are reported: a nightly backup that stopped is found within a day. */
const BACKUP_MAX_AGE_MS = 26 * 60 * 60_000;
/** The backup file names `leadscan backup --dir` writes (src/domain/backup/back-up-database.ts). */
const BACKUP_NAME = /^leadscan-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite$/;

/**
 * `leadscan doctor`: checks a deployment as it runs, from its own machine, and says what to fix, one line each.
 * It reads the server's own record (server_instances) for what the server runs with, and never migrates or creates
 * anything: a database it cannot reach or that lags behind the code is reported, not repaired.
 */
export async function runDoctor(
  config: Config,
  env: Record<string, string | undefined>,
  options: { backups?: string; timeoutMs?: number; minFreeGib?: number },
): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (check: string, ok: boolean, detail: string) => checks.push({ check, ok, detail });

  await checkDatabase(config, add);
  await checkPublicUrl(config, env, options.timeoutMs ?? 5000, add);
  if (options.backups !== undefined) checkBackups(options.backups, add);
  checkDisk(config, (options.minFreeGib ?? 1) * 1024 ** 3, add);
  checkAppSecret(config, add);
  await checkRenderer(add);
  add(
    'metrics token',
    config.metricsToken !== undefined,
    config.metricsToken !== undefined
      ? 'METRICS_TOKEN is set: /metrics asks for it'
      : 'METRICS_TOKEN is not set: /metrics answers 404; set a token of 16+ characters to scrape it',
  );
  return { ok: checks.every((c) => c.ok), checks };
}

type Add = (check: string, ok: boolean, detail: string) => void;

/**
 * The PDF renderer (docs/documents.md): a test render of a small document (fonts and layout, as a thread runs them) and
 * its time.
 */
async function checkRenderer(add: Add): Promise<void> {
  const started = performance.now();
  try {
    // The renderer (PDFKit and its fonts) is loaded by the one command that renders here, not by every command.
    const [{ layoutDocument }, { sampleDocument }] = await Promise.all([
      import('../pdf/layout.js'),
      import('../pdf/sample.js'),
    ]);
    const pdf = await layoutDocument(sampleDocument());
    const ms = Math.round(performance.now() - started);
    add('pdf renderer', true, `a test document rendered in ${ms} ms (${pdf.byteLength} bytes, fonts loaded included)`);
  } catch (error) {
    add('pdf renderer', false, `a test render failed: ${reasonOf(error)}; sent documents' PDFs cannot be made`);
  }
}

async function checkDatabase(config: Config, add: Add): Promise<void> {
  const where = config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : redactedUrl(config.database.url);
  if (
    config.database.kind === 'sqlite' &&
    config.database.path !== ':memory:' &&
    !fs.existsSync(config.database.path)
  ) {
    add('database', false, `No database at ${where}: run doctor where leadscan serve runs, or set DATABASE_URL`);
    return;
  }
  let store: Database | undefined;
  try {
    store = openDatabase(config.database, { poolSize: 2 });
    await store.ping();
  } catch (error) {
    await store?.close().catch(() => undefined);
    add(
      'database',
      false,
      `Cannot reach ${where}${diskFullAtOpen(config, error) ? ' (the disk is full: see the disk line)' : ''}: ` +
        reasonOf(error),
    );
    return;
  }
  try {
    // The same test write as /healthz (docs/operations.md, "Health").
    const probe = await store.probeWrite(10_000);
    if (probe.writable) add('database', true, `${where} answers and takes writes`);
    else
      add(
        'database',
        false,
        `${where} answers but refuses writes` +
          (probe.problem === 'disk_full'
            ? ' (the disk is full: see the disk line)'
            : probe.problem === 'read_only'
              ? ' (it is read-only)'
              : '') +
          `: ${reasonOf(probe.error)}`,
      );

    const known = Object.keys(await migrationProvider(store.dialect).getMigrations());
    const rows = await sql<{ name: string }>`select name from kysely_migration`
      .execute(store.db)
      .catch(() => ({ rows: [] }));
    const applied = new Set(rows.rows.map((r) => r.name));
    const missing = known.filter((name) => !applied.has(name));
    const unknown = [...applied].filter((name) => !known.includes(name));
    add(
      'migrations',
      missing.length === 0 && unknown.length === 0,
      missing.length > 0
        ? `${missing.length} migration(s) not applied (first ${missing[0]}): ` +
            'run leadscan migrate, or restart the server (it migrates at start)'
        : unknown.length > 0
          ? `The database has migration(s) this code does not know (${unknown[0]}): ` +
            'this leadscan is older than the database; upgrade it'
          : `current (${known.length} applied)`,
    );

    const server = missing.length === 0 ? await latestServer({ store, clock: systemClock }) : null;
    if (!server?.live) {
      add(
        'server',
        false,
        server
          ? 'No server running: ' +
              (server.stoppedAt
                ? `it stopped at ${server.stoppedAt}`
                : `the last heartbeat was at ${server.heartbeatAt}`) +
              '; start leadscan serve'
          : 'No server has run against this database; start leadscan serve',
      );
    } else {
      add('server', true, `running since ${server.startedAt}`);
    }
    if (server) {
      const send = server.lastSend;
      add(
        'email',
        server.email.on && send?.state !== 'failed' && send?.state !== 'pending',
        !server.email.on
          ? 'off on the server: set SMTP_URL and MAIL_FROM in its environment and restart it (docs/notifications.md)'
          : `on, through ${server.email.server}; last send: ` +
              (send
                ? `${send.state} at ${send.at}${send.error ? ` (${send.error})` : ''}`
                : 'none yet (try leadscan notify test --to you@example.com)'),
      );
      checkTrustProxy(config, server.trustProxy, add);
    }
  } finally {
    await store.close();
  }
}

/**
 * TRUST_PROXY against what the deployment looks like, as the server read it: behind a proxy (PUBLIC_BASE_URL on
 * another host than the one the server listens on) with TRUST_PROXY unset, every client looks like the proxy to the
 * rate limits and the audit log; with TRUST_PROXY set and no proxy, any client can name itself in X-Forwarded-For.
 * An inference from the configuration, said as one.
 */
function checkTrustProxy(config: Config, serverTrustProxy: unknown, add: Add): void {
  const trusted = serverTrustProxy !== false;
  const host = new URL(config.publicBaseUrl).hostname;
  const direct = host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === config.host;
  if (!trusted && !direct) {
    add(
      'trust proxy',
      false,
      `PUBLIC_BASE_URL is ${host}, not where the server listens, so a proxy is likely in front, ` +
        "but the server runs without TRUST_PROXY: client addresses will be the proxy's; " +
        "set TRUST_PROXY to the proxy's address (docs/deployment.md)",
    );
  } else if (trusted && direct) {
    add(
      'trust proxy',
      false,
      `The server trusts X-Forwarded-For (TRUST_PROXY=${JSON.stringify(serverTrustProxy)}) ` +
        `but PUBLIC_BASE_URL (${host}) points at the server itself: ` +
        'any client can name its own address; unset TRUST_PROXY',
    );
  } else {
    add(
      'trust proxy',
      true,
      trusted
        ? `the server trusts ${JSON.stringify(serverTrustProxy)} to name clients`
        : 'the server is reached directly and trusts no proxy',
    );
  }
}

async function checkPublicUrl(
  config: Config,
  env: Record<string, string | undefined>,
  timeoutMs: number,
  add: Add,
): Promise<void> {
  if (!env.PUBLIC_BASE_URL?.trim()) {
    add(
      'public url',
      false,
      'PUBLIC_BASE_URL is not set: links in emails point at localhost; set it to the address people use',
    );
    return;
  }
  const url = new URL('/healthz', config.publicBaseUrl);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    const body = (await response.json().catch(() => null)) as { ok?: unknown } | null;
    if (response.status === 200 && body?.ok === true) add('public url', true, `${url.href} answers from this machine`);
    else
      add(
        'public url',
        false,
        `${url.href} answered ${response.status}, not Leadscan's {"ok":true}: check the proxy in front of the server`,
      );
  } catch (error) {
    add('public url', false, `${url.href} does not answer from this machine: ${reasonOf(error)}`);
  }
  const https = url.protocol === 'https:';
  add(
    'https',
    https,
    https
      ? 'PUBLIC_BASE_URL is https'
      : 'PUBLIC_BASE_URL is plain http: passwords and session cookies cross the network in the clear; ' +
          'put TLS in front (docs/deployment.md)',
  );
}

function checkBackups(dir: string, add: Add): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => BACKUP_NAME.test(name));
  } catch (error) {
    add('backups', false, `Cannot read ${dir}: ${reasonOf(error)}`);
    return;
  }
  const newest = names.sort().at(-1);
  if (!newest) {
    add(
      'backups',
      false,
      `No leadscan-….sqlite backup in ${dir}: schedule leadscan backup --dir ${dir} (docs/operations.md)`,
    );
    return;
  }
  const m = /^leadscan-(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(newest)!;
  const at = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  const hours = Math.floor((Date.now() - at) / 3_600_000);
  const fresh = Date.now() - at <= BACKUP_MAX_AGE_MS;
  add(
    'backups',
    fresh,
    `newest ${newest}, ${hours} h old${fresh ? '' : ': the scheduled backup has stopped; check its timer or cron job'}`,
  );
}

/** Bytes as a person reads them: `512 B`, `3.4 MiB`, `12.0 GiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** The SQLite database's files (the database, its WAL and the search index): what the data directory holds for it. */
function sqliteBytes(config: Config): number | null {
  if (config.database.kind !== 'sqlite' || config.database.path === ':memory:') return null;
  const file = config.database.path;
  let total = 0;
  const search = searchIndexFile(file);
  for (const name of [file, `${file}-wal`, search, `${search}-wal`]) {
    try {
      total += fs.statSync(name).size;
    } catch {
      // a file that is not there takes no room
    }
  }
  return total;
}

/** Below this much free space, an I/O error opening SQLite is the full disk (its WAL and index cannot grow). */
const NEARLY_FULL = 1024 ** 2;

/**
 * Whether opening the database failed for want of space: the database says so, or SQLite answers "disk I/O error"
 * (growing its shared-memory index failed) on a file system with under a MiB free.
 */
function diskFullAtOpen(config: Config, error: unknown): boolean {
  if (writeProblemOf(error) === 'disk_full') return true;
  const ioError =
    /^SQLITE_IOERR/.test(String((error as { code?: unknown })?.code)) || /disk I\/O error/.test(reasonOf(error));
  if (config.database.kind !== 'sqlite' || !ioError) return false;
  try {
    const stats = fs.statfsSync(dataDirOf(config));
    return stats.bavail * stats.bsize < NEARLY_FULL;
  } catch {
    return false;
  }
}

/** The data directory, or its nearest existing parent: where its file system's free space is read. */
function dataDirOf(config: Config): string {
  let dir = path.resolve(config.dataDir);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * The free space of the data directory's file system (where the SQLite database, its WAL and the generated secret
 * live): what a full disk would stop first (docs/operations.md, "Health"). Said in bytes a person reads, with the
 * size of the disk and, on SQLite, what the database takes.
 */
function checkDisk(config: Config, minFree: number, add: Add): void {
  const dir = dataDirOf(config);
  try {
    const stats = fs.statfsSync(dir);
    const free = stats.bavail * stats.bsize;
    const total = stats.blocks * stats.bsize;
    const database = sqliteBytes(config);
    const said =
      `${formatBytes(free)} free of ${formatBytes(total)} under ${dir}` +
      `${database === null ? '' : `; the database takes ${formatBytes(database)}`}`;
    add(
      'disk',
      free >= minFree,
      free >= minFree
        ? said
        : `only ${said}: free space or grow the disk (wanted: at least ${formatBytes(minFree)}, --min-free)`,
    );
  } catch (error) {
    add('disk', false, `Cannot read free space under ${dir}: ${reasonOf(error)}`);
  }
}

function checkAppSecret(config: Config, add: Add): void {
  if (config.appSecret !== undefined) {
    const weak = new Set(config.appSecret).size < 10;
    add(
      'app secret',
      !weak,
      weak
        ? 'APP_SECRET repeats a few characters: make a new one with openssl rand -hex 32 (docs/security.md)'
        : 'APP_SECRET is set and long enough',
    );
    return;
  }
  const file = path.join(config.dataDir, 'app-secret');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    add(
      'app secret',
      false,
      `APP_SECRET is not set and there is no ${file}: ` +
        'the server makes one at its first start; keep it with the backups',
    );
    return;
  }
  const mode = fs.statSync(file).mode & 0o077;
  const ok = text.length >= 32 && mode === 0;
  add(
    'app secret',
    ok,
    text.length < 32
      ? `${file} holds a secret shorter than 32 characters`
      : mode !== 0
        ? `${file} is readable by others: chmod 600 ${file}`
        : `generated, in ${file} (keep it with the backups)`,
  );
}

const reportText = (report: DoctorReport) =>
  `${report.checks.map((c) => `${c.ok ? 'ok  ' : 'FIX '} ${c.check.padEnd(12)} ${c.detail}`).join('\n')}\n` +
  `${report.ok ? 'Nothing to fix.' : 'Something to fix (the FIX lines above).'}\n`;

/** `leadscan doctor [--backups DIR] [--json]`: exit 0 when every check passes, 1 otherwise. */
export function registerDoctorCommand(
  program: Command,
  { io, jsonMode, getConfig, withJson }: CliKit,
  setExit: (code: number) => void,
): void {
  withJson(program.command('doctor'))
    .description('check this deployment and say what to fix, one line each (exit 1 when something is wrong)')
    .option('--backups <dir>', 'the folder leadscan backup --dir writes to: how old is the newest backup')
    .option('--min-free <GiB>', 'free space wanted under the data directory (default 1)', positiveInteger)
    .option('--timeout <seconds>', 'how long PUBLIC_BASE_URL may take to answer (default 5)', positiveInteger)
    .action(async (opts: { backups?: string; minFree?: number; timeout?: number }) => {
      const report = await runDoctor(getConfig(), io.env, {
        ...(opts.backups === undefined ? {} : { backups: opts.backups }),
        ...(opts.minFree === undefined ? {} : { minFreeGib: opts.minFree }),
        ...(opts.timeout === undefined ? {} : { timeoutMs: opts.timeout * 1000 }),
      });
      io.stdout.write(jsonMode ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
      if (!report.ok) setExit(1);
    });
}
