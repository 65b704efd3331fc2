import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Dialect } from './dialect.js';
import { insertLeadInWrite, type LeadInsertValues } from './hot-writes/lead.js';
import { noticeArrivalsIn, type ArrivalRange } from './notice-arrivals-sql.js';
import type { Schema } from './schema.js';
import { pruneSearchChanges, searchLeadIdsSqlite } from './search-index.js';
import { SEARCH_MATCH_FUNCTION, searchLikePatterns, type SearchQuery } from './search-text.js';

/**
 * Where SQLite and PostgreSQL differ, as named operations (`ctx.store.ops`): the domain asks for a lock, a date
 * window or a search condition and never names the backend. SQLite has one writer, so its locks are no-ops.
 */
export interface DialectOps {
  /** Whether a backup is a copy this process can make (SQLite) rather than a job for the backend's own tool. */
  readonly copiesBackups: boolean;
  /** Takes the transaction-wide lock `key` (PostgreSQL: an advisory lock, waited for; released at COMMIT). */
  lock(trx: Transaction<Schema>, key: number): Promise<void>;
  /** Tries the transaction-wide lock named `name` without waiting: whether this transaction holds it now. */
  tryLock(trx: Transaction<Schema>, name: string): Promise<boolean>;
  /**
   * A select run inside a write, with the rows it reads locked until COMMIT where the backend needs it (FOR UPDATE).
   */
  lockedRead<Q extends { forUpdate(): Q }>(query: Q): Q;
  /**
   * An ISO timestamp column (as the text it holds) less `days`, as the same ISO text: the start of a window before it.
   */
  daysBefore(column: RawBuilder<unknown> | Expression<unknown>, days: number): RawBuilder<string>;
  /** Inbox search as a condition on the row of `leads` in scope (search-text.ts, `leadMatches`). */
  leadSearchMatches(query: SearchQuery): Expression<SqlBool>;
  /**
   * The leads of a workspace that the search index file finds for `query` (SQLite), or undefined when the search is
   * left to `leadSearchMatches` alone (PostgreSQL, or a query too short for the index).
   */
  indexedLeadIds(db: Kysely<Schema>, workspaceId: string, query: SearchQuery): Promise<string[] | undefined>;
  /** Inserts one lead inside a generic write with the hot path's INSERT, unguarded; how many rows it stored. */
  insertLead(trx: Transaction<Schema>, values: LeadInsertValues): Promise<number>;
  /** Prunes the search index's change log (SQLite); how many rows went. */
  pruneSearchLog(
    db: Kysely<Schema>,
    write: (run: (trx: Kysely<Schema>) => Promise<number>) => Promise<number>,
  ): Promise<number>;
  /**
   * The notifier's look at one range of arrivals: each not yet noticed is marked noticed and queued for each of
   * `userIds`, in SQL (notice-arrivals-sql.ts); how many, and the newest received time among them.
   */
  noticeArrivals(trx: Transaction<Schema>, range: ArrivalRange): Promise<{ count: number; newest: string | null }>;
}

const sqliteOps: DialectOps = {
  copiesBackups: true,
  lock: async () => {},
  tryLock: async () => true,
  lockedRead: (query) => query,
  daysBefore: (column, days) => sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, ${`-${days} days`})`,
  leadSearchMatches: (query) =>
    sql<SqlBool>`${sql.raw(SEARCH_MATCH_FUNCTION)}(${query.text}, ${query.digits},
      leads.name, leads.email, leads.phone, leads.notes, leads.extra) = 1`,
  indexedLeadIds: (db, workspaceId, query) => searchLeadIdsSqlite(db, workspaceId, query),
  pruneSearchLog: (db, write) => pruneSearchChanges(db, write),
  insertLead: (trx, values) => insertLeadInWrite(trx, 'sqlite', values),
  noticeArrivals: (trx, range) => noticeArrivalsIn(trx, 'sqlite', range),
};

const postgresOps: DialectOps = {
  copiesBackups: false,
  async lock(trx, key) {
    await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
  },
  async tryLock(trx, name) {
    const { rows } = await sql<{ held: boolean }>`select pg_try_advisory_xact_lock(hashtext(${name})) as held`.execute(
      trx,
    );
    return rows[0]?.held === true;
  },
  lockedRead: (query) => query.forUpdate(),
  daysBefore: (column, days) =>
    sql<string>`to_char((${column}::timestamptz - make_interval(days => ${days})) at time zone 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  /**
   * Two LIKE patterns over the lead's search document, wherever it is (migration 0025): moved into `lead_search`,
   * whose trigram index answers them, or still in `lead_search_pending`, a few rows scanned. The two tables are one
   * UNION ALL, so the planner can join it either way (the index's matches hashed, or each lead in page order looked
   * up by key).
   */
  leadSearchMatches(query) {
    const patterns = searchLikePatterns(query);
    const text = sql<SqlBool>`d.search_text like ${patterns.text} escape '\\'`;
    const match =
      patterns.digits === null ? text : sql<SqlBool>`(${text} or d.search_text like ${patterns.digits} escape '\\')`;
    return sql<SqlBool>`exists (select 1 from (select lead_id, search_text from lead_search
    union all select lead_id, search_text from lead_search_pending) d where d.lead_id = leads.id and ${match})`;
  },
  indexedLeadIds: async () => undefined,
  pruneSearchLog: async () => 0,
  insertLead: (trx, values) => insertLeadInWrite(trx, 'postgres', values),
  noticeArrivals: (trx, range) => noticeArrivalsIn(trx, 'postgres', range),
};

export function dialectOps(dialect: Dialect): DialectOps {
  return dialect === 'sqlite' ? sqliteOps : postgresOps;
}
