import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { createTestDatabase } from '../helpers/backends.js';

// Migration 0026 on a database that already has leads and has deleted its newest: the next lead to take a rowid
// handed out before is noted in the search index's change log (storage/search-index.ts), and a new one is not.
describe('migration 0026 on a database that already has leads [sqlite]', () => {
  it('notes a lead stored under a rowid deleted since, and none above the mark it starts at', async () => {
    const testDb = await createTestDatabase('sqlite');
    const store = openDatabase({ kind: 'sqlite', path: testDb.url });
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0025_search_beside_leads')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      await store.db.insertInto('workspaces').values({ id: 'ws_1', name: 'Old', created_at: now }).execute();
      await store.db
        .insertInto('pipelines')
        .values({ id: 'pl_1', workspace_id: 'ws_1', name: 'Sales', created_at: now })
        .execute();
      await store.db
        .insertInto('lead_sources')
        .values({
          id: 'src_1',
          workspace_id: 'ws_1',
          pipeline_id: 'pl_1',
          name: 'Form',
          token: '00000000-0000-4000-8000-000000000001',
          active: 1,
          bot_check_provider: null,
          bot_check_secret_enc: null,
          bot_check_site_key: null,
          bot_check_min_score: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const lead = (id: string) => ({
        id,
        workspace_id: 'ws_1',
        pipeline_id: 'pl_1',
        source_id: 'src_1',
        extra: '{}',
        bot_check: 'off',
        received_at: now,
        stage: 'inbox',
        name: id,
        email_key: null,
        phone_key: null,
      });
      await store.db.insertInto('leads').values(['lead_1', 'lead_2', 'lead_3'].map(lead)).execute();
      const rowidOf = async (id: string) =>
        (await sql<{ rowid: number }>`select rowid from leads where id = ${id}`.execute(store.db)).rows[0]!.rowid;
      const newest = await rowidOf('lead_3');
      await store.db.deleteFrom('leads').where('id', '=', 'lead_3').execute();
      // The log was pruned meanwhile (the daily run): nothing in it tells of the rowid any more.
      await sql`delete from leads_search_changes`.execute(store.db);

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const noted = async () =>
        (
          await sql<{ lead_rowid: number }>`select lead_rowid from leads_search_changes order by seq`.execute(store.db)
        ).rows.map((r) => r.lead_rowid);
      // lead_2 is now the newest; deleting it raises the mark, and its rowid is handed out again at once.
      await store.db.deleteFrom('leads').where('id', '=', 'lead_2').execute();
      await store.db.insertInto('leads').values(lead('lead_4')).execute();
      const reused = await rowidOf('lead_4');
      expect(reused).toBe(newest - 1);
      // lead_3's rowid, deleted before the migration: above its mark (the highest rowid in leads then), and above
      // every index's watermark too, since every index is rebuilt after the migration (layout 2): not noted, nor is
      // a rowid never used before.
      await store.db.insertInto('leads').values(lead('lead_5')).execute();
      expect(await rowidOf('lead_5')).toBe(newest);
      await store.db.insertInto('leads').values(lead('lead_6')).execute();
      expect(await rowidOf('lead_6')).toBe(newest + 1);
      expect(await noted()).toEqual([reused, reused]);
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
