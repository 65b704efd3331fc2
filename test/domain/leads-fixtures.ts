import type { Kysely } from 'kysely';
import { emailKey, phoneKey } from '../../src/storage/contact-keys.js';
import type { LeadTable, Schema } from '../../src/storage/schema.js';
import { searchDocument } from '../../src/storage/search-text.js';
import { leadRow } from '../helpers/hot-rows.js';
import type { Seeded, TestWorld } from '../helpers/test-app.js';

/**
 * Inserts leads straight into the table, many per transaction (for paging and export over hundreds of rows), with
 * the email and phone keys the lead INSERT stores (duplicates and a person's lookup read them).
 */
export async function insertLeads(
  world: TestWorld,
  seeded: Pick<Seeded, 'workspaceId' | 'pipelineId'> & { sourceId: string },
  rows: Array<Partial<LeadTable>>,
  /** `direct`: on the app's connection, not through the writer (which applies deletions to the search index). */
  { direct = false }: { direct?: boolean } = {},
): Promise<LeadTable[]> {
  const full = rows.map((row): LeadTable => ({
    ...leadRow({ id: seeded.sourceId, pipeline_id: seeded.pipelineId }, null),
    workspace_id: seeded.workspaceId,
    stage: 'inbox',
    restored_from: null,
    ...row,
    email_key: row.email_key ?? emailKey(row.email),
    phone_key: row.phone_key ?? phoneKey(row.phone),
  }));
  for (let i = 0; i < full.length; i += 200) {
    const chunk = full.slice(i, i + 200);
    const insert = async (db: Kysely<Schema>) => {
      await db.insertInto('leads').values(chunk).execute();
      // As the lead INSERT does on PostgreSQL (migration 0025); SQLite has no such table.
      if (world.store.dialect === 'postgres') {
        await db
          .insertInto('lead_search_pending')
          .values(chunk.map((row) => ({ lead_id: row.id, search_text: searchDocument(row) })))
          .execute();
      }
    };
    if (direct) await world.store.db.transaction().execute(insert);
    else await world.store.writer.write(insert);
  }
  return full;
}

/** Changes a lead's text fields directly, keeping its search document in step as every writer must. */
export async function updateLeadText(
  world: TestWorld,
  id: string,
  fields: Partial<Pick<LeadTable, 'name' | 'email' | 'phone' | 'notes'>>,
): Promise<void> {
  const { db, dialect } = world.store;
  const row = await db
    .selectFrom('leads')
    .select(['name', 'email', 'phone', 'notes', 'extra'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const keys = {
    ...('email' in fields ? { email_key: emailKey(fields.email) } : {}),
    ...('phone' in fields ? { phone_key: phoneKey(fields.phone) } : {}),
  };
  await db
    .updateTable('leads')
    .set({ ...fields, ...keys })
    .where('id', '=', id)
    .execute();
  if (dialect === 'postgres') {
    // The document is in one of the two tables (migration 0025), whether the search mover moved it or not.
    const searchText = searchDocument({ ...row, ...fields });
    for (const table of ['lead_search', 'lead_search_pending'] as const) {
      await db.updateTable(table).set({ search_text: searchText }).where('lead_id', '=', id).execute();
    }
  }
}

/** `2026-03-01T00:00:00.000Z` plus n minutes. */
export function minute(n: number): string {
  return new Date(Date.UTC(2026, 2, 1) + n * 60_000).toISOString();
}
