import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * SQLite: the search index leaves the database file for a file of its own, rebuilt at every server start and kept
 * by a thread of its own (storage/search-index.ts), so index work never holds the database's write lock that intake
 * batches wait for. What 0006 and 0008 made in the database goes: the index, the pending table and the insert
 * trigger (a new lead needs no note: the index knows the highest rowid it has indexed).
 *
 * What stays in the database is the change log the index cannot see for itself: the rowid of every deleted or edited
 * lead, in an ever-growing `seq` (AUTOINCREMENT, so a `seq` is never reused, even should the log be emptied one day),
 * which the index thread applies. PostgreSQL has no such index (ILIKE); nothing changes there.
 */
export function searchIndexFile(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      for (const trigger of ['leads_search_insert', 'leads_search_delete', 'leads_search_update']) {
        await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
      }
      await sql`drop table if exists leads_search`.execute(db);
      await sql`drop table if exists leads_search_pending`.execute(db);
      await sql`create table leads_search_changes (seq integer primary key autoincrement,
        lead_rowid integer not null)`.execute(db);
      await sql`create trigger leads_search_delete after delete on leads begin
        insert into leads_search_changes (lead_rowid) values (old.rowid);
      end`.execute(db);
      await sql`create trigger leads_search_update after update of name, email, phone, notes on leads begin
        insert into leads_search_changes (lead_rowid) values (new.rowid);
      end`.execute(db);
    },
  };
}
