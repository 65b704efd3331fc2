import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The SQLite search index of 0004 made every intake pay for a full-text index with positions and its own copy of
 * each lead's text, written row by row from a trigger: about three quarters of the writer thread's time per lead
 * (measured with `npm run bench`, docs/performance.md). It becomes a leaner one:
 * - `detail=none`: trigrams without positions. A term is looked up as "every trigram of it occurs" (a superset),
 *   and each candidate is checked against the lead itself (`searchIdsSqlite`), so results stay exact.
 * - contentless (`content=''`, `contentless_delete=1`): it keeps no copy of names, emails or notes, only trigram
 *   postings under the lead's rowid; `secure-delete` removes an erased lead's postings from the index pages.
 * - fed once per transaction, not once per row: FTS5 writes its pending postings out as a new segment whenever a
 *   later statement of the transaction opens a savepoint, which every lead INSERT does (it has triggers), so
 *   per-row indexing wrote and merged one segment per lead. A lead's trigger now only notes its rowid in
 *   `leads_search_pending`; the SQLite writer thread moves what is noted into the index as the last statement of
 *   each of its transactions, whoever inserted the lead. Until then the lead is found as a pending candidate,
 *   so search never misses it. (Since 0009 the index is a file of its own, outside the database.)
 * Rows are keyed by the leads table's rowid. VACUUM and VACUUM INTO keep rowids, and a lead's rowid never changes
 * otherwise; a stale or missing entry could only cost a search hit, never show a wrong lead,
 * because every candidate is checked.
 * PostgreSQL has no such index (ILIKE); nothing changes there.
 *
 * On both backends, `leads_phone` (0002) goes: no query uses it (a person is found by the digits of their phone,
 * compared in code over the workspace's leads), and every lead paid for it.
 */
export function leanSearchIndex(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('leads_phone').ifExists().execute();
      if (dialect !== 'sqlite') return;
      for (const trigger of ['leads_search_insert', 'leads_search_delete', 'leads_search_update']) {
        await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
      }
      await sql`drop table if exists leads_search`.execute(db);
      await sql`create virtual table leads_search using fts5(
        name, email, phone, notes, tokenize = 'trigram', detail = none, content = '', contentless_delete = 1
      )`.execute(db);
      await sql`insert into leads_search (leads_search, rank) values ('secure-delete', 1)`.execute(db);
      await sql`insert into leads_search (rowid, name, email, phone, notes)
        select rowid, name, email, phone, notes from leads`.execute(db);
      await sql`create table leads_search_pending (lead_rowid integer primary key)`.execute(db);
      await sql`create trigger leads_search_insert after insert on leads begin
        insert into leads_search_pending (lead_rowid) values (new.rowid);
      end`.execute(db);
      await sql`create trigger leads_search_delete after delete on leads begin
        delete from leads_search where rowid = old.rowid;
        delete from leads_search_pending where lead_rowid = old.rowid;
      end`.execute(db);
      await sql`create trigger leads_search_update after update of name, email, phone, notes on leads begin
        delete from leads_search where rowid = old.rowid;
        insert or ignore into leads_search_pending (lead_rowid) values (new.rowid);
      end`.execute(db);
    },
  };
}
