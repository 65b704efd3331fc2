import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { leadInsert, leadInsertParams, type LeadInsertValues } from '../../src/storage/hot-writes/lead.js';
import {
  columns,
  emptyBytes,
  insertRows,
  Markers,
  rowsOf,
  valuesRows,
  type Field,
} from '../../src/storage/hot-writes/sql-parts.js';
import { describeEachBackend } from '../helpers/backends.js';
import { leadRow } from '../helpers/hot-rows.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/** The parts hot statements are composed of (storage/hot-writes/sql-parts.ts), run on the real databases. */
describeEachBackend('hot statement parts', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend);
    ws = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const run = async <R>(text: string, params: unknown[]) =>
    (await world.store.db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
  const fields: readonly Field[] = [
    ['name', 'text'],
    ['n', 'int'],
  ];

  it('rowsOf reads the rows it is given, each field as named: one on SQLite, any number on PostgreSQL', async () => {
    const m = new Markers(backend);
    const rows =
      backend === 'sqlite'
        ? [{ name: 'a', n: 1 }]
        : [
            { name: 'a', n: 1 },
            { name: 'b', n: 2 },
            { name: null, n: 3 },
          ];
    const params = backend === 'sqlite' ? ['a', 1] : columns(rows, ['name', 'n'] as const);
    expect(await run(`select v.name, v.n from ${rowsOf(m, 'v', fields)}`, params)).toEqual(rows);
  });

  it('markers number on across the parts composed into one statement', async () => {
    const m = new Markers(backend);
    const first = rowsOf(m, 'v', fields);
    const text = `select v.name, v.n, ${m.next()} as tail from ${first}`;
    // SQLite's `?` bind in the order they appear in the text; PostgreSQL's `$n` in the order they were made.
    const params = backend === 'sqlite' ? ['last', 'a', 1] : [['a'], [1], 'last'];
    expect(await run(text, params)).toEqual([{ name: 'a', n: 1, tail: 'last' }]);
  });

  it('valuesRows gives one parenthesised row of parameters per row', async () => {
    const m = new Markers(backend);
    const count = backend === 'sqlite' ? 1 : 3;
    const rows = await run<Record<string, unknown>>(
      `select * from (values ${valuesRows(m, 2, count)}) as t`,
      Array.from({ length: count * 2 }, (_, i) => String(i)),
    );
    expect(rows.map((row) => Object.values(row))).toEqual(
      Array.from({ length: count }, (_, r) => [String(r * 2), String(r * 2 + 1)]),
    );
  });

  it('insertRows inserts the posted rows with their constants: one on SQLite, any number on PostgreSQL', async () => {
    await world.store.db.executeQuery(CompiledQuery.raw('create table parts_probe (name text, n integer, kind text)'));
    const insert = insertRows(new Markers(backend), 'parts_probe', [
      fields[0]!,
      ['kind', { constant: "'probe'" }],
      fields[1]!,
    ]);
    const rows =
      backend === 'sqlite'
        ? [{ name: 'a', n: 1 }]
        : [
            { name: 'a', n: 1 },
            { name: 'b', n: 2 },
          ];
    await run(insert, backend === 'sqlite' ? ['a', 1] : columns(rows, ['name', 'n'] as const));
    expect(await run('select name, n, kind from parts_probe order by n', [])).toEqual(
      rows.map((row) => ({ ...row, kind: 'probe' })),
    );
  });

  it('emptyBytes is an empty byte string', async () => {
    const [row] = await run<{ b: Uint8Array }>(`select ${emptyBytes(backend)} as b`, []);
    expect(Buffer.isBuffer(row!.b)).toBe(true);
    expect(row!.b.byteLength).toBe(0);
  });

  it('the lead insert, guarded or not, stores the same row; guarded, nothing for a source seen in another pipeline', async () => {
    const source = await world.store.db
      .selectFrom('lead_sources')
      .select(['id', 'pipeline_id'])
      .where('token', '=', ws.source.token)
      .executeTakeFirstOrThrow();
    const insert = async (guarded: boolean, row: LeadInsertValues) =>
      run<{ id: string }>(leadInsert(new Markers(backend), { guarded }), leadInsertParams(backend, [row]));
    const hot = { ...leadRow(source, 'Hot'), restored_from: null };
    const restored = { ...leadRow(source, 'Restored', 'pl_elsewhere'), restored_from: 'qr_x' };
    expect(await insert(true, hot)).toEqual([{ id: hot.id }]);
    expect(await insert(true, { ...restored, id: `${restored.id}0` })).toEqual([]);
    expect(await insert(false, restored)).toEqual([{ id: restored.id }]);
    const stored = await world.store.db
      .selectFrom('leads')
      .select([
        'id',
        'workspace_id',
        'pipeline_id',
        'source_id',
        'stage',
        'name',
        'extra',
        'bot_check',
        'restored_from',
      ])
      .orderBy('name')
      .execute();
    const common = {
      workspace_id: ws.workspaceId,
      pipeline_id: source.pipeline_id,
      source_id: source.id,
      stage: 'inbox',
      extra: '{}',
      bot_check: 'off',
    };
    expect(stored).toEqual([
      { id: hot.id, name: 'Hot', restored_from: null, ...common },
      { id: restored.id, name: 'Restored', restored_from: 'qr_x', ...common },
    ]);
  });
});
