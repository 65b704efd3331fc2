import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { searchDocument, type SearchableLead } from '../search-text.js';

const BATCH = 1000;

/**
 * Inbox search finds text without accents or case and phones by their digits (storage/search-text.ts).
 *
 * PostgreSQL: each lead gets `search_text`, its search document, computed by the app with the same function that
 * checks SQLite's candidates (an extension such as `unaccent` would fold text in its own way, and the answers of
 * the two databases would differ). The lead INSERT sets it (hot-writes/lead.ts); here existing leads get theirs, a
 * batch at a time. A pg_trgm GIN index over it answers the LIKE patterns of a search from the index, when the
 * extension can be had (it ships with PostgreSQL's contrib and is trusted: the database's owner may create it);
 * without it, search stays exact and scans.
 *
 * SQLite: nothing. Its search index file is rebuilt at every start and now indexes the same folded text.
 */
export function foldedSearch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`alter table leads add column search_text text`.execute(db);
      let after = '';
      for (;;) {
        const { rows } = await sql<Omit<SearchableLead, 'extra'> & { id: string }>`
          select id, name, email, phone, notes from leads where id > ${after} order by id limit ${BATCH}`.execute(db);
        if (rows.length === 0) break;
        await sql`update leads set search_text = v.search_text
          from unnest(${rows.map((r) => r.id)}::text[],
            ${rows.map((r) => searchDocument({ ...r, extra: null }))}::text[]) as v(id, search_text)
          where leads.id = v.id`.execute(db);
        after = rows.at(-1)!.id;
      }
      const { rows } = await sql<{ installed: boolean; available: boolean; allowed: boolean }>`
        select exists (select 1 from pg_extension where extname = 'pg_trgm') as installed,
               exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
               has_database_privilege(current_database(), 'CREATE') as allowed`.execute(db);
      const { installed, available, allowed } = rows[0]!;
      if (!installed && !(available && allowed)) return;
      if (!installed) await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index leads_search_text on leads using gin (search_text gin_trgm_ops)`.execute(db);
    },
  };
}
