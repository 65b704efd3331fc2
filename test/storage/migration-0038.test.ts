import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { searchDocument } from '../../src/storage/search-text.js';
import { createTestDatabase, describeEachBackend } from '../helpers/backends.js';

describeEachBackend('migration 0038 on a database that already has leads', (backend) => {
  it('gives existing leads their marketing source from their page address, and (PostgreSQL) documents that hold their answers', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0034_server_instances')).error).toBeUndefined();
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
        bot_check: 'off',
        received_at: now,
        stage: 'inbox',
      };
      // More than one batch of the backfills.
      const leads = Array.from({ length: 2203 }, (_, i) => ({
        ...old,
        id: `lead_${String(i).padStart(5, '0')}`,
        name: `Lead ${i}`,
        extra: i % 3 === 0 ? JSON.stringify({ 'Project type': `Loft ${i}` }) : '{}',
        page_url:
          i % 2 === 0
            ? `https://example.com/quote?utm_source=google&utm_medium=cpc&utm_campaign=Spring%20${i}&gclid=g${i}`
            : 'https://example.com/',
      }));
      for (let i = 0; i < leads.length; i += 200)
        await store.db
          .insertInto('leads')
          .values(leads.slice(i, i + 200))
          .execute();
      if (backend === 'postgres') {
        // As 0025 left them: the old documents, some moved and some pending.
        const docs = leads.map((l) => ({
          lead_id: l.id,
          search_text: searchDocument({ name: l.name, email: null, phone: null, notes: null, extra: null }),
        }));
        for (let i = 0; i < docs.length; i += 200) {
          await store.db
            .insertInto(i < 1000 ? 'lead_search' : 'lead_search_pending')
            .values(docs.slice(i, i + 200))
            .execute();
        }
      }

      await store.migrate();
      const rows = await store.db
        .selectFrom('leads')
        .select(['id', 'name', 'extra', 'utm_source', 'utm_medium', 'utm_campaign', 'gclid', 'fbclid'])
        .orderBy('id')
        .execute();
      rows.forEach((row, i) => {
        if (i % 2 === 0)
          expect(row, row.id).toMatchObject({
            utm_source: 'google',
            utm_medium: 'cpc',
            utm_campaign: `Spring ${i}`,
            gclid: `g${i}`,
            fbclid: null,
          });
        else
          expect(row, row.id).toMatchObject({
            utm_source: null,
            utm_medium: null,
            utm_campaign: null,
            gclid: null,
            fbclid: null,
          });
      });
      // The columns are bounded.
      await expect(
        store.db
          .updateTable('leads')
          .set({ utm_source: 'x'.repeat(201) })
          .where('id', '=', 'lead_00001')
          .execute(),
      ).rejects.toThrow();
      if (backend === 'postgres') {
        const docs = [
          ...(await store.db.selectFrom('lead_search').selectAll().execute()),
          ...(await store.db.selectFrom('lead_search_pending').selectAll().execute()),
        ].sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1));
        expect(docs).toHaveLength(leads.length);
        docs.forEach((doc, i) =>
          expect(doc.search_text, doc.lead_id).toBe(
            searchDocument({ name: rows[i]!.name, email: null, phone: null, notes: null, extra: rows[i]!.extra }),
          ),
        );
      }
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
