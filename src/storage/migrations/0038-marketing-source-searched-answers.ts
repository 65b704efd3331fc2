import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { searchDocument, type SearchableLead } from '../search-text.js';

/**
 * Two changes to what a lead holds and how it is found (docs/api.md, "Marketing source"; docs/admin-app.md, Search):
 *
 * - `leads.utm_source`, `utm_medium`, `utm_campaign`, `gclid`, `fbclid`: the marketing parameters of the page address
 *   the lead came from (`page_url`), at most 200 characters each (a CHECK on both databases; intake cuts longer
 *   values). Leads stored before are given theirs from their `page_url`, read by the rule written out below (a
 *   migration never changes; domain/marketing-source.ts is the rule intake uses). `leads_workspace_utm_source`
 *   answers the inbox's filter by source (partial: most leads have none).
 * - Inbox search finds the extra fields' values (a hosted form's custom answers). On PostgreSQL a lead's search
 *   document is stored (migration 0025), so the documents of leads with extra fields are written again, a batch at a
 *   time; leads without any keep theirs, which is already what the new rule gives. SQLite's index file is rebuilt
 *   at the next start instead (its layout changed, storage/search-index.ts).
 *
 * Kysely runs a migration in one transaction on both databases, so a crash part-way runs it again from the start.
 */
export function marketingSourceAndSearchedAnswers(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of COLUMNS) {
        await db.schema
          .alterTable('leads')
          .addColumn(column, 'text', (c) => c.check(sql`length(${sql.ref(column)}) <= ${sql.lit(VALUE_MAX)}`))
          .execute();
      }
      await db.schema
        .createIndex('leads_workspace_utm_source')
        .on('leads')
        .columns(['workspace_id', 'utm_source', 'received_at', 'id'])
        .where(sql.ref('utm_source'), 'is not', null)
        .execute();

      const store = db as unknown as Kysely<Tables>;
      let after = '';
      for (;;) {
        const rows = await store
          .selectFrom('leads')
          .select(['id', 'page_url'])
          .where('id', '>', after)
          .where('page_url', 'like', '%?%')
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        for (const row of rows) {
          const found = marketingOf(row.page_url);
          if (found) await store.updateTable('leads').set(found).where('id', '=', row.id).execute();
        }
        after = rows.at(-1)!.id;
      }

      if (dialect !== 'postgres') return;
      after = '';
      for (;;) {
        const rows = await store
          .selectFrom('leads')
          .select(['id', 'name', 'email', 'phone', 'notes', 'extra'])
          .where('id', '>', after)
          .where('extra', '<>', '{}')
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        const ids = rows.map((r) => r.id);
        const documents = rows.map(searchDocument);
        for (const table of ['lead_search', 'lead_search_pending']) {
          await sql`update ${sql.table(table)} d set search_text = v.search_text
            from unnest(${ids}::text[], ${documents}::text[]) as v(id, search_text)
            where d.lead_id = v.id`.execute(db);
        }
        after = rows.at(-1)!.id;
      }
    },
  };
}

const COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign', 'gclid', 'fbclid'] as const;
const VALUE_MAX = 200;
const BATCH = 2000;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The marketing parameters of a page address as of this migration, or null when it has none. */
function marketingOf(pageUrl: string | null): Partial<Record<(typeof COLUMNS)[number], string>> | null {
  if (pageUrl === null) return null;
  let params: URLSearchParams;
  try {
    params = new URL(pageUrl).searchParams;
  } catch {
    return null;
  }
  const found: Partial<Record<(typeof COLUMNS)[number], string>> = {};
  for (const name of COLUMNS) {
    const value = params.get(name)?.replace(CONTROL, '').trim();
    if (value) found[name] = [...value].slice(0, VALUE_MAX).join('');
  }
  return Object.keys(found).length > 0 ? found : null;
}

interface Tables {
  leads: SearchableLead & {
    id: string;
    page_url: string | null;
    utm_source: string | null;
    utm_medium: string | null;
    utm_campaign: string | null;
    gclid: string | null;
    fbclid: string | null;
  };
}
