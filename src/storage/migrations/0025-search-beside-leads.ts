import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL: a lead's search document (storage/search-text.ts) moves out of the leads row, and its trigram index off
 * the intake's INSERT (docs/architecture.md, "Inbox search").
 *
 * The GIN index of migration 0018 took about 70 µs of the database's CPU per lead and, worse, every concurrent
 * INSERT queued on the index's pending-list lock: intake answered a third of what it did without it. Now the lead
 * INSERT writes its document into `lead_search_pending`, a small table with no index but its key, and a background
 * pass (storage/postgres-search-mover.ts) moves documents in batches into `lead_search`, which holds the trigram
 * index. A search looks in both: the index for what was moved, a scan of the few pending rows for the rest, so a
 * lead is found the moment its INSERT commits, whether or not it was moved yet. A move is one statement (delete from
 * one, insert into the other), so a document is always in exactly one of the two.
 *
 * Both rows go with their lead (`on delete cascade`): deletes, erasure and retention need not know of them.
 *
 * SQLite: nothing; its search index file is kept by its own thread off the write path already.
 */
export function searchBesideLeads(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      for (const table of ['lead_search', 'lead_search_pending']) {
        await sql`create table ${sql.table(table)} (
          lead_id text primary key references leads (id) on delete cascade,
          search_text text not null
        )`.execute(db);
      }
      // Every lead's document is already computed (0018 and the INSERT since): copied as it is, all at once.
      await sql`insert into lead_search (lead_id, search_text)
        select id, search_text from leads where search_text is not null`.execute(db);
      const { rows } = await sql<{ indexed: boolean }>`
        select exists (select 1 from pg_indexes where indexname = 'leads_search_text') as indexed`.execute(db);
      // The trigram index where 0018 could make one (pg_trgm installed); without it, search stays exact and scans.
      if (rows[0]!.indexed) {
        await sql`create index lead_search_text on lead_search using gin (search_text gin_trgm_ops)`.execute(db);
      }
      await sql`alter table leads drop column search_text`.execute(db);
    },
  };
}
