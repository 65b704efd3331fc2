import type { LeadTable } from '../../src/storage/schema.js';
import { searchDocument } from '../../src/storage/search-text.js';
import { leadRow } from '../helpers/hot-rows.js';
import type { Seeded, TestWorld } from '../helpers/test-app.js';

/** Inserts leads straight into the table, many per transaction (for paging and export over hundreds of rows). */
export async function insertLeads(
  world: TestWorld,
  seeded: Pick<Seeded, 'workspaceId' | 'pipelineId'> & { sourceId: string },
  rows: Array<Partial<LeadTable>>,
  /** `direct`: on the app's connection, not through the writer (which applies deletions to the search index). */
  { direct = false }: { direct?: boolean } = {},
): Promise<LeadTable[]> {
  const full = rows.map(
    (row): LeadTable => ({
      ...leadRow({ id: seeded.sourceId, pipeline_id: seeded.pipelineId }, null),
      workspace_id: seeded.workspaceId,
      stage: 'inbox',
      restored_from: null,
      ...row,
    }),
  );
  // As the lead INSERT does on PostgreSQL (search_text, migration 0018); SQLite has no such column.
  if (world.store.dialect === 'postgres') for (const row of full) row.search_text = searchDocument(row);
  for (let i = 0; i < full.length; i += 200) {
    const chunk = full.slice(i, i + 200);
    if (direct) await world.store.db.insertInto('leads').values(chunk).execute();
    else await world.store.writer.write((trx) => trx.insertInto('leads').values(chunk).execute());
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
  const row = await db.selectFrom('leads').select(['name', 'email', 'phone', 'notes']).where('id', '=', id).executeTakeFirstOrThrow();
  const set: Partial<LeadTable> = { ...fields };
  if (dialect === 'postgres') set.search_text = searchDocument({ ...row, ...fields });
  await db.updateTable('leads').set(set).where('id', '=', id).execute();
}

/** `2026-03-01T00:00:00.000Z` plus n minutes. */
export function minute(n: number): string {
  return new Date(Date.UTC(2026, 2, 1) + n * 60_000).toISOString();
}
