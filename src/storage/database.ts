import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig, WritePath } from '../config.js';
import { BatchedHotWriter } from './batched-hot-writer.js';
import { CommitBatcher } from './commit-batcher.js';
import { dialectOps, type DialectOps } from './dialect-ops.js';
import type { HotWriter } from './hot-writes.js';
import { applySearchChanges, SEARCH_SCHEMA, searchIndexFile } from './search-index.js';
import { leadMatches, SEARCH_MATCH_FUNCTION } from './search-text.js';
import { PostgresHotWriter } from './postgres-hot-writer.js';
import { SqliteHotWriter } from './sqlite-hot-writer.js';
import { withStorageErrors } from './storage-errors-dialect.js';
import { migrationProvider } from './migrations/index.js';
import type { Schema } from './schema.js';
import { probeWrite, type WriteProbe } from './write-probe.js';

import type { Dialect } from './dialect.js';

export type { Dialect } from './dialect.js';

/** One handle for both backends: a typed query builder for reads, a group-commit writer for writes. */
export interface Database {
  readonly dialect: Dialect;
  /** Where the backends differ, as named operations (locks, date windows, search): what the domain calls. */
  readonly ops: DialectOps;
  readonly db: Kysely<Schema>;
  readonly writer: CommitBatcher;
  /**
   * The data-only path for the hot writes (intake lead, quarantine entry, scan upload, idempotency claim and answer):
   * a writer thread on SQLite, multi-row statements on PostgreSQL. Same promise as `writer`: resolves after COMMIT.
   */
  readonly hot: HotWriter;
  migrate(): Promise<void>;
  /**
   * After a person's data was deleted: makes the deleted bytes unreadable on disk as far as this backend allows
   * (docs/personal-data.md). SQLite zeroes deleted content as it goes (`secure_delete`); this then copies the WAL
   * into the database and truncates it, since the WAL still holds the pages as they were before the delete.
   * PostgreSQL runs VACUUM on the tables named, so no dead row version keeps the data.
   */
  forgetDeleted(tables: ReadonlyArray<keyof Schema>): Promise<ForgetReport>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** One test write, committed and gone (write-probe.ts): whether the database takes writes, and if not, why. */
  probeWrite(timeoutMs: number): Promise<WriteProbe>;
  /** Drains the writer, then closes connections. */
  close(): Promise<void>;
  /** Told after each commit of either writer (set by the app for /metrics; OpenOptions.onCommit is the first). */
  onCommit: ((batchSize: number, seconds: number) => void) | undefined;
}

/** What `forgetDeleted` managed; a step that could not finish (a long reader, say) is reported, not hidden. */
export interface ForgetReport {
  /** SQLite: the WAL was checkpointed and truncated to zero bytes. */
  walTruncated?: boolean;
  /** PostgreSQL: the tables VACUUM ran on. */
  vacuumed?: string[];
  /**
   * PostgreSQL: transactions begun before the delete and still open when VACUUM ran anyway (after waiting for them
   * up to OLDER_TRANSACTIONS_WAIT_MS); VACUUM keeps the row versions such a transaction could still read.
   */
  olderTransactionsOpen?: number;
}

/** How long a PostgreSQL erasure waits for transactions older than its delete before it runs VACUUM anyway. */
const OLDER_TRANSACTIONS_WAIT_MS = 10_000;

/**
 * PostgreSQL's VACUUM removes a dead row version only when no transaction still running began before the delete
 * (it might still read the row): a background pass (the search mover, once a second) or another instance's request
 * in flight at that moment would leave the erased row on disk. Waits until every transaction of this database that
 * began before `since` has ended, or the bound passes; returns how many are still open.
 */
async function awaitOlderTransactions(db: Kysely<Schema>, since: string): Promise<number> {
  const deadline = Date.now() + OLDER_TRANSACTIONS_WAIT_MS;
  for (;;) {
    const { rows } = await sql<{ open: number }>`
      select count(*)::int as open from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_xmin is not null
      and xact_start < ${since}::timestamptz`.execute(db);
    const open = rows[0]!.open;
    if (open === 0 || Date.now() >= deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface OpenOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** Called after each commit of either writer, with the number of writes it held and its duration (metrics). */
  onCommit?: (batchSize: number, seconds: number) => void;
  /** The hot writes' path (config.ts, LEADSCAN_WRITE_PATH): the hot writers (default) or the commit batcher alone. */
  writePath?: WritePath;
}

function openSqlite(file: string): { db: Kysely<Schema>; sqlite: BetterSqlite3.Database } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  // Personal data: deleted rows are overwritten with zeros in the page, not just unlinked, so an erased person
  // cannot be read back out of the file. Set before the search file is attached, which then inherits it.
  sqlite.pragma('secure_delete = ON');
  // Durability: WAL with synchronous=FULL flushes the WAL on every COMMIT, so a committed write survives
  // power loss. busy_timeout lets the CLI and the server share the file.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // The writer thread commits the hot writes and runs the WAL checkpoints; this connection serves reads and the
  // occasional management write, and never checkpoints on the event loop.
  sqlite.pragma('wal_autocheckpoint = 0');
  // Inbox search's exact check (search-text.ts) for the scans in page order that SQL cannot fold accents for.
  sqlite.function(SEARCH_MATCH_FUNCTION, { deterministic: true }, (text, digits, name, email, phone, notes, extra) =>
    leadMatches(
      {
        name: name as string | null,
        email: email as string | null,
        phone: phone as string | null,
        notes: notes as string | null,
        extra: extra as string | null,
      },
      { text: text as string, digits: digits as string | null },
    )
      ? 1
      : 0,
  );
  // The search index's own file (search-index.ts), read by inbox search; created empty if it is not there yet.
  if (file !== ':memory:') sqlite.prepare(`attach database ? as ${SEARCH_SCHEMA}`).run(searchIndexFile(file));
  return { db: new Kysely<Schema>({ dialect: withStorageErrors(new SqliteDialect({ database: sqlite })) }), sqlite };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Copies every WAL frame into the database and truncates the WAL to zero bytes. A reader still on an older
 * snapshot (a long inbox export) keeps the WAL alive, so this retries for a few seconds before it says it could not.
 */
async function truncateWal(sqlite: BetterSqlite3.Database): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (result?.busy === 0) return true;
    await pause(100);
  }
  return false;
}

/**
 * int8 (count(*), bigint) arrives from pg as text by default; SQLite hands back numbers. Parse it to a number so
 * both backends answer alike, and refuse rather than round a value beyond 2^53.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`A 64-bit integer from PostgreSQL (${text}) does not fit a JavaScript number`);
  return value;
}

const INT8_OID = 20;

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function openPostgres(url: string, poolSize: number): { db: Kysely<Schema>; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A database that does not answer a new connection within 5 s is "unavailable" (503), not a hung request.
    connectionTimeoutMillis: 5000,
    // Notice a silently dropped connection (a failed-over server, a NAT timeout) instead of waiting forever.
    keepAlive: true,
    // Durability: a COMMIT returns only after the WAL record is flushed; never trust a server default.
    options: '-c synchronous_commit=on',
    // Per pool, not pg.types globally: other code in the process keeps pg's defaults.
    types: pgTypes,
  });
  // An idle client losing its connection (database restart) must not crash the process; pg-pool drops it.
  pool.on('error', () => {});
  // A checked-out client (inside a transaction) has no pool listener: without this one, a connection lost
  // mid-batch would be an unhandled 'error' event and kill the process. The query in flight rejects on its own,
  // so the batch's writes all reject, and the pool discards the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return { db: new Kysely<Schema>({ dialect: withStorageErrors(new PostgresDialect({ pool })) }), pool };
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  const dialect: Dialect = config.kind;
  let db: Kysely<Schema>;
  let writer: CommitBatcher;
  let hot: HotWriter;
  let forgetDeleted: Database['forgetDeleted'];
  // The observer may be set after opening (the app's metrics); the writers call through this one function.
  const observer = { onCommit: options.onCommit };
  const onCommit = (batchSize: number, seconds: number) => observer.onCommit?.(batchSize, seconds);
  if (config.kind === 'sqlite') {
    const opened = openSqlite(config.path);
    db = opened.db;
    const batched = options.writePath === 'batcher';
    // With the batcher as the write path the writer thread never starts; its checkpoint and search index threads do.
    const sqliteHot = new SqliteHotWriter(config.path, { onCommit, writerThread: !batched });
    if (batched) {
      // The writer thread's statement journal setting (sqlite-hot-worker.ts), now that lead INSERTs run here.
      opened.sqlite.pragma('temp_store = MEMORY');
    }
    // With the writer thread paused, so no new frame lands in the WAL while it is emptied.
    forgetDeleted = async () => ({ walTruncated: await sqliteHot.exclusive(() => truncateWal(opened.sqlite)) });
    writer = new CommitBatcher(db, {
      maxBatch: 256,
      lanes: 1,
      onCommit,
      // Leads a generic write deleted (a person's erasure) leave the search index at once: through the search
      // index thread where the server runs it, or here, in a process that has none (a CLI run).
      exclusive: (run) =>
        sqliteHot.exclusive(async () => {
          const result = await run();
          if (!sqliteHot.threaded) applySearchChanges(config.path);
          return result;
        }),
    });
    hot = batched ? new BatchedHotWriter(writer, 'sqlite', sqliteHot) : sqliteHot;
  } else {
    const opened = openPostgres(config.url, options.poolSize ?? 10);
    db = opened.db;
    writer = new CommitBatcher(db, { maxBatch: 256, lanes: 4, onCommit });
    // Two lanes: a batch is one statement per kind (leads, scans, the rest), each its own commit, so two batches in
    // flight keep the WAL flushing back to back while leaving most of the pool to reads and the generic writer. More
    // lanes measured no faster here (2 cores): concurrent scan inserts mostly wait on the TOAST table's extension lock.
    hot =
      options.writePath === 'batcher'
        ? new BatchedHotWriter(writer, 'postgres')
        : new PostgresHotWriter(opened.pool, { maxBatch: 512, lanes: 2, onCommit });
    // VACUUM cannot run inside a transaction: it runs on a pool connection of its own, after the delete committed.
    forgetDeleted = async (tables) => {
      const names = [...new Set(tables)];
      if (names.length === 0) return { vacuumed: names };
      // The delete has committed: a transaction begun from now on cannot see the erased rows.
      const { rows } = await sql<{ now: string }>`select now()::text as now`.execute(db);
      const open = await awaitOlderTransactions(db, rows[0]!.now);
      await sql`vacuum ${sql.join(names.map((name) => sql.table(name)))}`.execute(db);
      return open > 0 ? { vacuumed: names, olderTransactionsOpen: open } : { vacuumed: names };
    };
  }
  let closed = false;
  return {
    dialect,
    ops: dialectOps(dialect),
    db,
    writer,
    hot,
    get onCommit() {
      return observer.onCommit;
    },
    set onCommit(observe) {
      observer.onCommit = observe;
    },
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
      }
    },
    forgetDeleted: (tables) => forgetDeleted(tables),
    async ping() {
      await sql`select 1`.execute(db);
    },
    probeWrite: (timeoutMs) => probeWrite(writer, timeoutMs),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([writer.close(), hot.close()]);
      await db.destroy();
    },
  };
}
