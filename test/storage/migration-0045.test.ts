import { quoteCtx } from '../helpers/contexts.js';
import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { acceptanceHash } from '../../src/domain/quotes/acceptance-hash.js';
import { loadQuoteView, findQuoteRow } from '../../src/domain/quotes/quote-view.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { copyQuote } from '../../src/domain/quotes/copy-quote.js';
import { loadConfig } from '../../src/config.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { createTestDatabase, describeEachBackend } from '../helpers/backends.js';

const NOW = '2026-11-20T10:00:00.000Z';

/**
 * The version-1 vector's revision (test/domain/quotes/acceptance-hash.test.ts) as a quote accepted before 0045, with
 * its lines out of id order, and a draft of another quote with no lines.
 */
async function seedBefore0045(db: ReturnType<typeof openDatabase>['db']) {
  await db.insertInto('workspaces').values({ id: 'ws_1', name: 'Old', created_at: NOW, time_zone: 'UTC' }).execute();
  await db
    .insertInto('pipelines')
    .values({ id: 'pl_1', workspace_id: 'ws_1', name: 'Sales', created_at: NOW })
    .execute();
  await db
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
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  await db
    .insertInto('leads')
    .values({
      id: 'lead_1',
      workspace_id: 'ws_1',
      pipeline_id: 'pl_1',
      source_id: 'src_1',
      bot_check: 'off',
      received_at: NOW,
      stage: 'inbox',
      name: 'Ada',
      extra: '{}',
    })
    .execute();
  const quote = {
    workspace_id: 'ws_1',
    lead_id: 'lead_1',
    customer_name: 'Ada',
    customer_email: null,
    customer_phone: null,
    customer_address: null,
    title: null,
    note: null,
    valid_until: '2026-12-26',
    currency: 'CAD',
    tax_rates: JSON.stringify([
      { name: 'GST', rate: 5000 },
      { name: 'QST', rate: 9975 },
    ]),
    token_hash: null,
    token_enc: null,
    created_by_user_id: null,
    created_at: NOW,
    updated_at: NOW,
    sent_by_user_id: null,
    viewed_at: null,
    view_count: 0,
    declined_at: null,
    decline_reason: null,
    withdrawn_at: null,
    plans: null,
    chosen_lines: null,
  };
  await db
    .insertInto('quotes')
    .values([
      {
        ...quote,
        id: 'quo_00000000000000000000000000000001',
        chain_id: 'quo_00000000000000000000000000000001',
        number: 'Q-0007',
        revision: 2,
        status: 'accepted',
        terms: 'Half up front; the rest on completion. Café ☕',
        subtotal: 55860,
        total: 64225,
        sent_at: NOW,
        accepted_at: NOW,
        accepted_name: 'Ada',
        acceptance_hash: '09b2bfd7d963ef8be47e3a9bbc0bd91bf06578e845b8a55dec1a37f2515346b3',
      },
      {
        ...quote,
        id: 'quo_00000000000000000000000000000002',
        chain_id: 'quo_00000000000000000000000000000002',
        number: null,
        revision: 1,
        status: 'draft',
        terms: null,
        subtotal: 0,
        total: 0,
        sent_at: null,
        accepted_at: null,
        accepted_name: null,
        acceptance_hash: null,
      },
    ])
    .execute();
  const line = { quote_id: 'quo_00000000000000000000000000000001', source: null };
  await db
    .insertInto('quote_lines')
    .values([
      {
        ...line,
        id: 'qln_c',
        position: 0,
        description: 'Oak floor — Kitchen',
        quantity: 1432,
        unit: 'm2',
        unit_price: 4250,
        amount: 60860,
        taxes: '["GST","QST"]',
        optional: 0,
        chosen: 1,
      },
      {
        ...line,
        id: 'qln_a',
        position: 1,
        description: 'Skirting "Colonial" 12 × 70 mm\nwhite',
        quantity: 1460,
        unit: 'm',
        unit_price: 1199,
        amount: 17505,
        taxes: '["GST"]',
        optional: 1,
        chosen: 0,
      },
      {
        ...line,
        id: 'qln_b',
        position: 2,
        description: 'Discount',
        quantity: 100,
        unit: 'fixed',
        unit_price: -5000,
        amount: -5000,
        taxes: '["GST","QST"]',
        optional: 0,
        chosen: 1,
      },
    ])
    .execute();
}

describeEachBackend('migration 0045 on a database that already has quotes', (backend) => {
  it('puts each revision’s lines in one section without a heading: it reads as before and its acceptance still verifies', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0043_stage_names_unique')).error).toBeUndefined();
      await seedBefore0045(store.db);
      await store.migrate();
      const sections = await store.db.selectFrom('quote_sections').selectAll().orderBy('quote_id').execute();
      expect(sections.map((s) => ({ ...s, position: Number(s.position) }))).toEqual([
        {
          id: 'qsc_00000000000000000000000000000001',
          quote_id: 'quo_00000000000000000000000000000001',
          position: 0,
          title: null,
          choice: null,
          recommended: 0,
          chosen: 1,
          room: 0,
        },
        {
          id: 'qsc_00000000000000000000000000000002',
          quote_id: 'quo_00000000000000000000000000000002',
          position: 0,
          title: null,
          choice: null,
          recommended: 0,
          chosen: 1,
          room: 0,
        },
      ]);
      const lines = await store.db.selectFrom('quote_lines').select(['id', 'section_id']).execute();
      expect(new Set(lines.map((l) => l.section_id))).toEqual(new Set(['qsc_00000000000000000000000000000001']));
      const versions = await store.db.selectFrom('quotes').select(['id', 'acceptance_version']).orderBy('id').execute();
      expect(versions.map((v) => (v.acceptance_version === null ? null : Number(v.acceptance_version)))).toEqual([
        1,
        null,
      ]);

      // The app's verbs on the migrated database: the accepted revision as it was, its hash recomputed under version 1.
      const config = loadConfig({ DATABASE_URL: testDb.url, APP_SECRET: 'x'.repeat(43), LOG_LEVEL: 'silent' });
      const ctx = createDomainContext({ config, store, appSecret: 'x'.repeat(43) });
      const row = await findQuoteRow(store.db, {
        workspaceId: 'ws_1',
        quoteId: 'quo_00000000000000000000000000000001',
      });
      const view = await loadQuoteView(ctx, store.db, row);
      expect(view.lines.map((l) => l.id)).toEqual(['qln_c', 'qln_a', 'qln_b']);
      expect(view.sections).toEqual([
        {
          id: 'qsc_00000000000000000000000000000001',
          title: null,
          subtotal: 55860,
          choice: null,
          recommended: false,
          chosen: true,
        },
      ]);
      expect(view).toMatchObject({ subtotal: 55860, total: 64225, deposit: null, acceptanceVersion: 1 });
      expect(acceptanceHash(view)).toBe(view.acceptanceHash);
      // A draft made before 0045 takes new lines into its one section; a copy keeps the accepted one's section.
      const draft = await addQuoteLine({
        ctx: await quoteCtx(ctx, 'quo_00000000000000000000000000000002'),
        input: {
          quoteId: 'quo_00000000000000000000000000000002',
          line: { description: 'Labour', quantity: '2', unit: 'hour', price: '60' },
        },
      });
      expect(draft.lines.map((l) => l.sectionId)).toEqual(['qsc_00000000000000000000000000000002']);
      const copy = await copyQuote({ ctx: await quoteCtx(ctx, view.id), input: { quoteId: view.id } });
      expect(copy.sections).toHaveLength(1);
      expect(copy.sections[0]!.id).not.toBe(view.sections[0]!.id);
      expect(copy.lines.map((l) => [l.description, l.sectionId])).toEqual(
        view.lines.map((l) => [l.description, copy.sections[0]!.id]),
      );
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
