/**
 * The SQLite inbox search index, in a file of its own beside the database (`<database>-search`), kept by a thread
 * of its own (sqlite-search-indexer.ts) at the lowest CPU priority.
 *
 * Why a file of its own: SQLite lets one connection write a database file at a time. While the trigram index lived
 * in the database file, every piece of index work (about half of the writer's work per lead: tokenizing ~1 KB of
 * text into trigrams, writing segments, merging them) held the one write lock, and intake batches waited behind
 * it for up to 5 ms. In its own file the index is written while the writer thread commits intake batches, on the
 * other core, and only when that core has nothing more urgent to do.
 *
 * What the index holds is derived data, built from `leads` (10 to 40 µs a lead, by its text, plus folding it
 * (search-text.ts): 1–3 µs for 1 KB of plain text, 20–30 µs for 1 KB of accented text; about 1 s for the 100,000
 * leads of the inbox bench on an idle VM, 13 s of CPU at 1,000,000): nothing about it needs to be backed up, migrated
 * or restored. A start keeps the index it finds when its watermark still describes this database (`current`), and
 * then indexes only what changed since (new leads above `indexed_upto`, changes above `changes_upto`: deletions and
 * edits made while the server was down, by the CLI or anything else, are in the change log like any other). An index
 * whose watermark does not fit the database (a restored or copied database, another database's index, an index of an
 * older layout) is rebuilt from nothing, so a database is never searched through a stale index.
 *
 * How search stays exact while the index lags (lead-filters.ts):
 * - `state.indexed_upto`: every lead with a rowid up to it was indexed, or noted in the change log; leads above it
 *   are all candidates;
 * - `leads_search_changes` (in the database, migration 0009): the delete and update triggers of `leads` note each
 *   changed rowid with an ever-growing `seq`; changes above `state.changes_upto` are candidates too. A rowid SQLite
 *   hands out again (the newest lead deleted or marked as spam, then another stored) is noted too, by the insert
 *   trigger of migration 0026: the index may have passed that rowid and applied its delete already, and would never
 *   read it again otherwise. The index only reads the database, never
 *   writes it: a write from here would break the read-then-write transactions of the app's own connection
 *   (SQLITE_BUSY_SNAPSHOT). The daily retention run deletes the rows it has applied (`pruneSearchChanges`).
 * Candidates are checked against the leads' own text, so stale postings never show.
 *
 * An erased lead's postings leave the index when its change is applied (within about 50 ms while the server runs;
 * a CLI run applies it itself, `applySearchChanges`), with FTS5's secure-delete.
 */
import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Schema } from './schema.js';
import {
  documentParts,
  leadMatches,
  SEARCH_MATCH_FUNCTION,
  searchDocument,
  type SearchableLead,
  type SearchQuery,
} from './search-text.js';

/** The index's file for the database file `databaseFile`. */
export function searchIndexFile(databaseFile: string): string {
  return `${databaseFile}-search`;
}

/** The schema name the index file is attached under, on the app's own connection. */
export const SEARCH_SCHEMA = 'search';

/** Leads (or changes) per index transaction. */
const CHUNK = 256;

/**
 * The layout of the index file, kept in its state: a file of another layout is rebuilt at the next start. 2: since
 * migration 0026 the change log notes a lead stored under a rowid handed out again, and indexes of layout 1 may have
 * passed such leads by (rebuilt, they find them again). 3: the document holds the extra fields' values (custom
 * answers, migration 0038), so every index of layout 2 is rebuilt once to hold them. `extra` is written only by the
 * lead INSERT (no edit changes it), so the change log's update trigger need not watch it.
 */
const LAYOUT = 3;

/** A lead's searchable columns as read from `leads`: rowid, name, email, phone, notes, extra. */
type LeadTextRow = [
  rowid: number,
  name: string | null,
  email: string | null,
  phone: string | null,
  notes: string | null,
  extra: string | null,
];

/** What the index holds of a lead: the two parts of its search document, the folded fields and the phone's digits. */
function indexRow([rowid, name, email, phone, notes, extra]: LeadTextRow): [number, string, string] {
  const { text, digits } = documentParts(searchDocument({ name, email, phone, notes, extra }));
  return [rowid, text, digits];
}

/** What an index opened for serving did first: kept the index it found, or built it from nothing. */
export type IndexStart = 'resumed' | 'rebuilt';

/** The index's watermark: how far it has read `leads` and the change log, and what it saw at each mark. */
interface Watermark {
  indexed_upto: number;
  /** The id of the lead at rowid `indexed_upto` when it was indexed (null with `indexed_upto` 0). */
  upto_lead_id: string | null;
  changes_upto: number;
  /** The `lead_rowid` of the change `changes_upto` (null with `changes_upto` 0). */
  changes_upto_rowid: number | null;
}

export class SearchIndex {
  /** False for an index file that has never been built (then nothing else may be called but close). */
  readonly ready: boolean;
  /** With `rebuild: 'unless-current'`: whether the index found was kept or built again; undefined otherwise. */
  readonly start: IndexStart | undefined;
  /** Leads indexed and changes applied by this instance, since it was opened (what a start costs, observable). */
  readonly done = { leads: 0, changes: 0 };
  /** The index file, written only here. */
  private readonly db: BetterSqlite3.Database;
  /**
   * The database, read-only: a write from here would break the read-then-write transactions of the app's own
   * connection (SQLITE_BUSY_SNAPSHOT), and an attached database would be write-locked by every BEGIN IMMEDIATE.
   */
  private readonly app: BetterSqlite3.Database;
  private readonly statements!: ReturnType<SearchIndex['prepare']>;

  /**
   * Opens (creating if need be) the index of `databaseFile`. `rebuild`: true empties it first; false takes it as it
   * is; 'unless-current' (a server start) keeps it when its watermark fits the database, and empties it otherwise.
   */
  constructor(databaseFile: string, { rebuild }: { rebuild: boolean | 'unless-current' }) {
    this.app = new BetterSqlite3(databaseFile, { readonly: true, fileMustExist: true });
    this.db = new BetterSqlite3(searchIndexFile(databaseFile));
    this.db.pragma('journal_mode = WAL');
    // Kept across starts, so a crash must not spoil it: in WAL mode NORMAL keeps the file consistent through a
    // power cut (the last transactions may be lost, with the watermark they moved), at no fsync per transaction.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // Freed pages are zeroed, so an erased lead's text does not linger in the file.
    this.db.pragma('secure_delete = ON');
    if (rebuild === 'unless-current') {
      this.start = this.current() ? 'resumed' : 'rebuilt';
      if (this.start === 'rebuilt') this.rebuild();
    } else if (rebuild) {
      this.rebuild();
    }
    // An index file of an older layout (`leads_search`, or a state without the watermark's fingerprints) is as good
    // as none until a start rebuilds it.
    this.ready = this.hasLayout();
    if (this.ready) this.statements = this.prepare();
  }

  private hasLayout(): boolean {
    const tables = this.db
      .prepare("select count(*) from sqlite_master where name in ('state', 'leads_folded')")
      .pluck()
      .get();
    if (tables !== 2) return false;
    const columns = this.db.prepare("select name from pragma_table_info('state')").pluck().all() as string[];
    if (
      !['indexed_upto', 'upto_lead_id', 'changes_upto', 'changes_upto_rowid', 'layout'].every((c) =>
        columns.includes(c),
      )
    )
      return false;
    return this.db.prepare('select layout from state').pluck().get() === LAYOUT;
  }

  /**
   * Whether the watermark describes this database: the change log reaches `changes_upto` (its `seq` is never reused)
   * with the same lead at that change, and the lead at `indexed_upto` is the one indexed there, or a change was
   * logged for its rowid (deleted, or deleted and reused: the log covers it). A restored copy older than the index,
   * or another database, fails one of these; every lead and change past the marks is then work for `step`.
   */
  private current(): boolean {
    if (!this.hasLayout()) return false;
    const mark = this.db
      .prepare('select indexed_upto, upto_lead_id, changes_upto, changes_upto_rowid from state')
      .get() as Watermark | undefined;
    if (!mark) return false;
    const lastSeq =
      (this.app.prepare("select seq from sqlite_sequence where name = 'leads_search_changes'").pluck().get() as
        number | undefined) ?? 0;
    if (mark.changes_upto > lastSeq) return false;
    if (mark.changes_upto > 0) {
      const rowid = this.app
        .prepare('select lead_rowid from leads_search_changes where seq = ?')
        .pluck()
        .get(mark.changes_upto) as number | undefined;
      if (rowid !== undefined && rowid !== mark.changes_upto_rowid) return false;
    }
    if (mark.indexed_upto > 0) {
      const id = this.app.prepare('select id from leads where rowid = ?').pluck().get(mark.indexed_upto) as
        string | undefined;
      if (id !== mark.upto_lead_id) {
        const noted = this.app
          .prepare('select 1 from leads_search_changes where lead_rowid = ? limit 1')
          .pluck()
          .get(mark.indexed_upto);
        if (noted === undefined) return false;
      }
    }
    return true;
  }

  private prepare() {
    const lead = 'select rowid, name, email, phone, notes, extra from leads';
    return {
      begin: this.db.prepare('begin immediate'),
      commit: this.db.prepare('commit'),
      rollback: this.db.prepare('rollback'),
      state: this.db.prepare('select indexed_upto, upto_lead_id, changes_upto, changes_upto_rowid from state'),
      saveState: this.db.prepare(
        'update state set indexed_upto = ?, upto_lead_id = ?, changes_upto = ?, changes_upto_rowid = ?',
      ),
      insert: this.db.prepare('insert into leads_folded (rowid, text, digits) values (?, ?, ?)'),
      forget: this.db.prepare('delete from leads_folded where rowid = ?'),
      changes: this.app.prepare('select seq, lead_rowid from leads_search_changes where seq > ? order by seq limit ?'),
      lead: this.app.prepare(`${lead} where rowid = ?`).raw(),
      leadId: this.app.prepare('select id from leads where rowid = ?').pluck(),
      chunk: this.app.prepare(`${lead} where rowid > ? order by rowid limit ?`).raw(),
      backlog: this.app.prepare('select count(*) from leads where rowid > ?').pluck(),
    };
  }

  /** An empty index, as of no lead at all (whatever the file held is dropped, and its pages zeroed). */
  private rebuild(): void {
    const last = this.app
      .prepare('select seq, lead_rowid from leads_search_changes order by seq desc limit 1')
      .get() as { seq: number; lead_rowid: number } | undefined;
    this.db.exec(
      'drop table if exists leads_search; drop table if exists leads_folded; drop table if exists state; vacuum',
    );
    this.db.transaction(() => {
      // Folded text (search-text.ts), so the index finds `gagne` in `Gagné`, and the phone's digits on their own. A
      // new name for a new layout: searching an index file of the old one finds no table and takes every lead.
      this.db.exec(`create virtual table leads_folded using fts5(
        text, digits, tokenize = 'trigram', detail = none, content = '', contentless_delete = 1
      )`);
      this.db.exec("insert into leads_folded (leads_folded, rank) values ('secure-delete', 1)");
      this.db.exec(`create table state (
        indexed_upto integer not null, upto_lead_id text, changes_upto integer not null, changes_upto_rowid integer,
        layout integer not null
      )`);
      this.db
        .prepare('insert into state values (0, null, ?, ?, ?)')
        .run(last?.seq ?? 0, last?.lead_rowid ?? null, LAYOUT);
    })();
  }

  /**
   * One bounded piece of work in one transaction of the index file: the next changes (deleted or edited leads),
   * then (with `leads`) the next new leads. Returns how many it handled; 0 when the index is current.
   */
  step({ leads = true }: { leads?: boolean } = {}): number {
    const s = this.statements;
    s.begin.run();
    try {
      const mark = s.state.get() as Watermark;
      const changes = s.changes.all(mark.changes_upto, CHUNK) as Array<{ seq: number; lead_rowid: number }>;
      for (const rowid of new Set(changes.map((c) => c.lead_rowid))) {
        // A lead above indexed_upto is indexed with the new leads, as it is then.
        if (rowid > mark.indexed_upto) continue;
        s.forget.run(rowid);
        const row = s.lead.get(rowid) as LeadTextRow | undefined;
        if (row) s.insert.run(indexRow(row));
      }
      if (changes.length > 0) {
        mark.changes_upto = changes.at(-1)!.seq;
        mark.changes_upto_rowid = changes.at(-1)!.lead_rowid;
      }
      const rows = leads ? (s.chunk.all(mark.indexed_upto, CHUNK) as LeadTextRow[]) : [];
      for (const row of rows) s.insert.run(indexRow(row));
      if (rows.length > 0) {
        mark.indexed_upto = rows.at(-1)![0];
        mark.upto_lead_id = s.leadId.get(mark.indexed_upto) as string;
      }
      const done = changes.length + rows.length;
      if (done > 0) s.saveState.run(mark.indexed_upto, mark.upto_lead_id, mark.changes_upto, mark.changes_upto_rowid);
      s.commit.run();
      this.done.leads += rows.length;
      this.done.changes += changes.length;
      return done;
    } catch (error) {
      if (this.db.inTransaction) s.rollback.run();
      throw error;
    }
  }

  /** Leads stored and not yet indexed. */
  backlog(): number {
    const { indexed_upto: indexedUpTo } = this.statements.state.get() as { indexed_upto: number };
    return this.statements.backlog.get(indexedUpTo) as number;
  }

  close(): void {
    this.db.close();
    this.app.close();
  }
}

/**
 * Applies the noted changes (deleted leads) to the index file, if there is one, in a process without the indexer
 * thread (a CLI run): an erased person's postings leave the index now rather than at the server's next start.
 */
export function applySearchChanges(databaseFile: string): void {
  if (databaseFile === ':memory:' || !fs.existsSync(searchIndexFile(databaseFile))) return;
  const index = new SearchIndex(databaseFile, { rebuild: false });
  try {
    if (!index.ready) return;
    // Only the changes: new leads are found meanwhile as candidates, and indexed by the server's thread.
    while (index.step({ leads: false }) > 0);
  } finally {
    index.close();
  }
}

/** Above this many candidates, a LIKE scan in page order finds a page sooner than checking every candidate. */
const INDEXED_SEARCH_MAX = 2000;

/** FTS5 phrases for every trigram of `text` (the index keeps no positions: each trigram is looked up alone). */
function trigramsOf(text: string): string[] {
  const chars = [...text];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  return [...trigrams].map((t) => `"${t.replaceAll('"', '""')}"`);
}

/**
 * The ids of every lead that matches `query` (search-text.ts), from the trigram index in the search index file
 * (this file), or undefined when the index cannot help: folded text under 3 characters, no index built yet, or a
 * search so common that a scan in page order stops after a few hundred rows anyway. Rare terms, the slow case for a
 * scan, are answered here.
 *
 * Two parts, each exact:
 * - the leads the index has caught up with: the index keeps no positions, so it answers "every trigram of the text
 *   occurs in the lead's folded text" (or, for a phone search, "every trigram of the digits occurs in its phone's
 *   digits"), a superset; each such candidate is checked against the lead's own text with `leadMatches`;
 * - the leads it has not caught up with yet (stored, edited, or a rowid reused since its watermark): checked in SQL
 *   with the same test (`leadscan_search_match`), so their cost is what the index lags behind (a few hundred leads
 *   while intake pours in; bench/run.ts prints it), not a scan of the whole workspace, and they are never missed.
 */
export async function searchLeadIdsSqlite(
  db: Kysely<Schema>,
  workspaceId: string,
  query: SearchQuery,
): Promise<string[] | undefined> {
  const text = trigramsOf(query.text);
  if (text.length === 0) return undefined;
  const digits = query.digits === null ? [] : trigramsOf(query.digits);
  // detail=none allows no column filters: digits are looked up in the text too, and text in the digits (a superset).
  const match = digits.length > 0 ? `(${text.join(' AND ')}) OR (${digits.join(' AND ')})` : text.join(' AND ');
  const limit = INDEXED_SEARCH_MAX + 1;
  // `search` is the index file, attached to the app's connection. Only this workspace's leads count towards the
  // limit: another tenant's thousands of matches must not push this one's search off the index and onto a scan. A
  // join, not `rowid in (…)`: FTS5 hands out its matches in rowid order as they are asked for, so a common term
  // stops at the limit instead of listing every match first (98 ms for a term in 240,000 leads).
  const indexed = await sql<{ rowid: number }>`
    select l.rowid from search.leads_folded f join leads l on l.rowid = f.rowid
    where f.leads_folded match ${match} and l.workspace_id = ${workspaceId} limit ${limit}`
    .execute(db)
    .catch(notBuilt);
  if (!indexed || indexed.rows.length > INDEXED_SEARCH_MAX) return undefined;
  const unindexed = await unindexedMatches(workspaceId, query, limit).execute(db).catch(notBuilt);
  if (!unindexed || unindexed.rows.length > INDEXED_SEARCH_MAX) return undefined;
  const ids = new Set(unindexed.rows.map((r) => r.id));
  const rowids = indexed.rows.map((r) => r.rowid);
  for (let at = 0; at < rowids.length; at += 500) {
    const { rows } = await sql<SearchableLead & { id: string }>`
      select id, name, email, phone, notes, extra from leads
      where rowid in (${sql.join(rowids.slice(at, at + 500))})`.execute(db);
    for (const lead of rows) if (leadMatches(lead, query)) ids.add(lead.id);
  }
  return [...ids];
}

/**
 * The workspace's leads past the index's watermarks (new since `indexed_upto`, changed since `changes_upto`) that
 * match `query`, checked in SQL by the same function, at most `limit`. From the rowids past the watermarks to their
 * leads (`cross join` keeps that order): with `rowid in (…)` SQLite walked every lead of the workspace by its index
 * and looked each up in the list (30 ms a search at 320,000 leads, bench/run.ts).
 */
export function unindexedMatches(workspaceId: string, query: SearchQuery, limit: number): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`
    select l.id from (
      select lead_rowid as rowid from leads_search_changes where seq > (select changes_upto from search.state)
      union select rowid from leads where rowid > (select indexed_upto from search.state)) c
    cross join leads l on l.rowid = c.rowid
    where l.workspace_id = ${workspaceId}
    and ${sql.raw(SEARCH_MATCH_FUNCTION)}(${query.text}, ${query.digits},
      l.name, l.email, l.phone, l.notes, l.extra) = 1
    limit ${limit}`;
}

/** No index file attached yet, or one being rebuilt at this moment by a starting server: the caller scans. */
function notBuilt(error: unknown): undefined {
  if (!/no such table: search\./.test(String((error as Error)?.message))) throw error;
  return undefined;
}

/** Change-log rows deleted per transaction by `pruneSearchChanges`. */
const PRUNE_BATCH = 5000;

/**
 * Deletes the rows of `leads_search_changes` the index has applied (SQLite; the daily retention run calls it), in
 * transactions of PRUNE_BATCH rows through `write`, and returns how many went. The log is the index's only way to
 * hear of deleted and edited leads, and it cannot prune it itself (it never writes the database), so without this
 * it would grow by a row for every edit and delete for ever. The row at the watermark stays: a start compares it
 * with what the index saw there (`current`). With no index built yet nothing is applied, and nothing goes.
 */
export async function pruneSearchChanges(
  db: Kysely<Schema>,
  write: (run: (trx: Kysely<Schema>) => Promise<number>) => Promise<number>,
): Promise<number> {
  // Read before the writes: the watermark only grows, so a value read a moment ago is still safe to prune below.
  const state = await sql<{ changes_upto: number }>`select changes_upto from search.state`.execute(db).catch(notBuilt);
  const upTo = state?.rows[0]?.changes_upto;
  if (upTo === undefined) return 0;
  let total = 0;
  for (;;) {
    const deleted = await write(async (trx) => {
      const result = await sql`delete from leads_search_changes where seq in (
        select seq from leads_search_changes where seq < ${upTo} order by seq limit ${PRUNE_BATCH})`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    });
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
