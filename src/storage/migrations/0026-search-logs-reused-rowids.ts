import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * SQLite: a lead stored under a rowid SQLite hands out again is noted in the search index's change log
 * (storage/search-index.ts), so the index never passes it by.
 *
 * SQLite gives a new row the table's highest rowid plus one: once the newest lead is deleted (or marked as spam), the
 * next lead (a new one, or the same one restored) gets its rowid again. The index had already read `leads` past that
 * rowid, and the delete's note in the change log could be applied before the new lead came: the new lead was then
 * neither indexed nor a candidate, and no search found it, even after a restart.
 *
 * Every rowid handed out again was deleted before, and every delete passes through the delete trigger. So the
 * trigger now also raises `leads_search_mark.deleted_upto` to the highest rowid ever deleted, and an insert at or
 * below that mark is noted in the change log like an edit (a few inserts in a great many: a new lead above the mark,
 * the usual case, costs one lookup of a one-row table). Why not AUTOINCREMENT rowids for `leads`: that needs a
 * rebuild of the largest table with foreign keys off and a declared rowid column, which every `select *` of leads
 * (the quarantine's saved state, a person's export) would then carry (docs/architecture.md, "Inbox search").
 *
 * The mark starts at the highest rowid of `leads` and of the log: a rowid deleted before this migration and above
 * both was pruned from the log, and no index will have passed it, since the index layout changed with this
 * migration (search-index.ts `LAYOUT`) and every index is rebuilt at the next start. Each step may run again (a crash
 * before Kysely records the migration runs it again at the next start). PostgreSQL: nothing (its search rows go with
 * their lead, migration 0025).
 */
export function searchLogsReusedRowids(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`create table if not exists leads_search_mark (deleted_upto integer not null)`.execute(db);
      await sql`insert into leads_search_mark (deleted_upto)
        select max(coalesce((select max(rowid) from leads), 0),
          coalesce((select max(lead_rowid) from leads_search_changes), 0))
        where not exists (select 1 from leads_search_mark)`.execute(db);
      await sql`drop trigger if exists leads_search_delete`.execute(db);
      await sql`create trigger leads_search_delete after delete on leads begin
        insert into leads_search_changes (lead_rowid) values (old.rowid);
        update leads_search_mark set deleted_upto = old.rowid where deleted_upto < old.rowid;
      end`.execute(db);
      await sql`drop trigger if exists leads_search_reused`.execute(db);
      await sql`create trigger leads_search_reused after insert on leads
        when new.rowid <= (select deleted_upto from leads_search_mark) begin
        insert into leads_search_changes (lead_rowid) values (new.rowid);
      end`.execute(db);
    },
  };
}
