import { Migrator } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { initial } from '../../src/storage/migrations/0001-initial.js';
import { dedupeNames } from '../../src/storage/migrations/0002-unique-names-intake-log.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { loadConfig } from '../../src/config.js';

it('dedupeNames keeps the oldest name and skips suffixes already taken', () => {
  const row = (id: string, scope: string, name: string, at: string) => ({ id, scope, name, created_at: at });
  expect(
    dedupeNames([
      row('b', '', 'acme roofing', '2026-01-02'),
      row('a', '', 'Acme Roofing', '2026-01-01'),
      row('c', '', 'Acme Roofing (2)', '2026-01-03'),
      row('d', '', 'ACME ROOFING', '2026-01-04'),
      row('e', 'other', 'Acme Roofing', '2026-01-05'),
    ]),
  ).toEqual([
    { id: 'b', from: 'acme roofing', to: 'acme roofing (3)' },
    { id: 'd', from: 'ACME ROOFING', to: 'ACME ROOFING (4)' },
  ]);
});

describeEachBackend('migration 0002 on a database with duplicate names', (backend) => {
  let testDb: TestDatabase;
  let store: Database;
  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
    await testDb.drop();
  });

  it('renames later duplicates, says so on stderr, and then the database refuses new duplicates', async () => {
    testDb = await createTestDatabase(backend);
    store = openDatabase(loadConfig({ DATABASE_URL: testDb.url }).database);
    const only0001 = new Migrator({
      db: store.db,
      provider: { getMigrations: () => Promise.resolve({ '0001_initial': initial(store.dialect) }) },
    });
    expect((await only0001.migrateToLatest()).error).toBeUndefined();
    const { db } = store;
    await db
      .insertInto('workspaces')
      .values([
        { id: 'ws_1', name: 'Acme Roofing', created_at: '2026-01-01T00:00:00.000Z' },
        { id: 'ws_2', name: 'Acme Roofing', created_at: '2026-01-02T00:00:00.000Z' },
      ])
      .execute();
    await db
      .insertInto('pipelines')
      .values([
        { id: 'pl_1', workspace_id: 'ws_1', name: 'Sales', created_at: '2026-01-01T00:00:00.000Z' },
        { id: 'pl_2', workspace_id: 'ws_1', name: 'sales', created_at: '2026-01-02T00:00:00.000Z' },
        { id: 'pl_3', workspace_id: 'ws_2', name: 'Sales', created_at: '2026-01-02T00:00:00.000Z' },
      ])
      .execute();

    const said: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      said.push(String(chunk));
      return true;
    });
    await store.migrate();
    vi.restoreAllMocks();

    const names = await db.selectFrom('workspaces').select(['id', 'name']).orderBy('id').execute();
    expect(names).toEqual([
      { id: 'ws_1', name: 'Acme Roofing' },
      { id: 'ws_2', name: 'Acme Roofing (2)' },
    ]);
    const pipelines = await db.selectFrom('pipelines').select(['id', 'name']).orderBy('id').execute();
    expect(pipelines).toEqual([
      { id: 'pl_1', name: 'Sales' },
      { id: 'pl_2', name: 'sales (2)' },
      { id: 'pl_3', name: 'Sales' },
    ]);
    expect(said).toEqual([
      'leadscan: names are now unique: renamed workspace ws_2 from "Acme Roofing" to "Acme Roofing (2)"\n',
      'leadscan: names are now unique: renamed pipeline pl_2 from "sales" to "sales (2)"\n',
    ]);
    await expect(
      db
        .insertInto('workspaces')
        .values({ id: 'ws_3', name: 'ACME ROOFING', created_at: '2026-01-03T00:00:00.000Z' })
        .execute(),
    ).rejects.toThrow(/unique/i);
  });
});
