import { Migrator, sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { searchDocument } from '../../src/storage/search-text.js';
import { createTestDatabase, describeEachBackend } from '../helpers/backends.js';

describeEachBackend('migrations 0018 and 0025 on a database that already has leads', (backend) => {
  it('gives every existing lead its search document on PostgreSQL, and a trigram index over it; 0025 moves both beside the leads', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0017_email_changes')).error).toBeUndefined();
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
      const old = {
        workspace_id: 'ws_1',
        pipeline_id: 'pl_1',
        source_id: 'src_1',
        extra: '{}',
        bot_check: 'off',
        received_at: now,
        stage: 'inbox',
      };
      // More than one batch of the migration's backfill.
      const leads = Array.from({ length: 1203 }, (_, i) => ({
        ...old,
        id: `lead_${String(i).padStart(5, '0')}`,
        name: i % 2 === 0 ? `Gagné ${i}` : `Tremblay ${i}`,
        phone: `+1 514-555-${String(i).padStart(4, '0')}`,
        notes: i === 7 ? 'Appeler APRÈS 17 h' : null,
      }));
      for (let i = 0; i < leads.length; i += 200)
        await store.db
          .insertInto('leads')
          .values(leads.slice(i, i + 200))
          .execute();

      expect((await migrator.migrateTo('0018_folded_search')).error).toBeUndefined();
      if (backend === 'sqlite') {
        // Nothing in the database: the search index file, rebuilt at start, holds the folded text.
        const columns = (await store.db.introspection.getTables())
          .find((t) => t.name === 'leads')!
          .columns.map((c) => c.name);
        expect(columns).not.toContain('search_text');
        return;
      }
      // The column 0018 added (0025 moves it out of leads again).
      const { rows } = await sql<{
        id: string;
        name: string | null;
        email: string | null;
        phone: string | null;
        notes: string | null;
        search_text: string;
      }>`
        select id, name, email, phone, notes, search_text from leads order by id`.execute(store.db);
      expect(rows).toHaveLength(leads.length);
      for (const row of rows) expect(row.search_text, row.id).toBe(searchDocument({ ...row, extra: null }));
      const indexes = await sql<{
        indexdef: string;
      }>`select indexdef from pg_indexes where indexname = 'leads_search_text'`.execute(store.db);
      expect(indexes.rows[0]?.indexdef).toMatch(/gin \(search_text gin_trgm_ops\)/);

      // Then 0025 moves every document beside the leads, under a trigram index of its own, and drops the column.
      await store.migrate();
      const moved = await store.db.selectFrom('lead_search').selectAll().orderBy('lead_id').execute();
      expect(moved.map((r) => [r.lead_id, r.search_text])).toEqual(rows.map((r) => [r.id, r.search_text]));
      expect(await store.db.selectFrom('lead_search_pending').selectAll().execute()).toEqual([]);
      const leadColumns = (await store.db.introspection.getTables())
        .find((t) => t.name === 'leads')!
        .columns.map((c) => c.name);
      expect(leadColumns).not.toContain('search_text');
      const after = await sql<{ indexname: string; indexdef: string }>`
        select indexname, indexdef from pg_indexes where indexname in ('leads_search_text', 'lead_search_text')`.execute(
        store.db,
      );
      expect(after.rows.map((r) => r.indexname)).toEqual(['lead_search_text']);
      expect(after.rows[0]!.indexdef).toMatch(/gin \(search_text gin_trgm_ops\)/);
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
