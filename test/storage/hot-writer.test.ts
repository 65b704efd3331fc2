import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { SqliteHotWriter } from '../../src/storage/sqlite-hot-writer.js';
import { StorageUnavailableError } from '../../src/storage/storage-errors.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { leadRow, scanRow } from '../helpers/hot-rows.js';

describeEachBackend('hot writer', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend);
    ws = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const scan = (id: string) => scanRow(ws.workspaceId, id);
  const write = (id: string) => world.store.hot.write({ kind: 'scan', scan: scan(id), rooms: [{ name: 'A', start: 10, end: 17 }], done: null });
  const scanIds = async () => (await world.store.db.selectFrom('scans').select('id').orderBy('id').execute()).map((r) => r.id);

  it('a write that fails a constraint fails alone; the writes batched with it commit', async () => {
    const taken = newId('scan');
    await write(taken);
    const before = world.store.hot.stats.commits;
    const ids = [newId('scan'), newId('scan'), newId('scan')];
    const outcomes = await Promise.allSettled([write(ids[0]!), write(taken), write(ids[1]!), write(ids[2]!)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await scanIds()).toEqual([taken, ...ids].sort());
    // SQLite: one transaction, the failed statement undone alone. PostgreSQL: the batch, then each write alone.
    expect(world.store.hot.stats.commits - before).toBe(backend === 'sqlite' ? 1 : 3);
    const rooms = await world.store.db.selectFrom('scan_rooms').select('scan_id').execute();
    expect(rooms).toHaveLength(4);
  });

  it('a guarded lead insert stores nothing for a closed source, and the rest of the batch commits', async () => {
    const source = await world.store.db.selectFrom('lead_sources').selectAll().where('token', '=', ws.source.token).executeTakeFirstOrThrow();
    const lead = (name: string, pipeline = source.pipeline_id) => leadRow(source, name, pipeline);
    const results = await Promise.all([
      world.store.hot.write({ kind: 'lead', lead: lead('a'), done: null }),
      world.store.hot.write({ kind: 'lead', lead: lead('moved', 'pl_elsewhere'), done: null }),
      world.store.hot.write({ kind: 'lead', lead: lead('b'), done: null }),
    ]);
    expect(results.map((r) => r.stored)).toEqual([true, false, true]);
    const stored = await world.store.db.selectFrom('leads').select(['name', 'workspace_id', 'stage']).orderBy('name').execute();
    expect(stored).toEqual([
      { name: 'a', workspace_id: ws.workspaceId, stage: 'inbox' },
      { name: 'b', workspace_id: ws.workspaceId, stage: 'inbox' },
    ]);
  });

  if (backend === 'sqlite') {
    it('leaves search indexing out of the batch: its leads wait as noted until the thread is idle long enough, or closes', async () => {
      const source = await world.store.db.selectFrom('lead_sources').selectAll().where('token', '=', ws.source.token).executeTakeFirstOrThrow();
      const hot = new SqliteHotWriter(world.testDb.url, { searchUpkeep: { afterMs: 60_000 } });
      const file = new BetterSqlite3(world.testDb.url, { readonly: true });
      try {
        const names = ['Zebulon Quill', 'Xanthe Marsh', 'Yusuf Brand'];
        await Promise.all(names.map((name) => hot.write({ kind: 'lead', lead: leadRow(source, name), done: null })));
        const pending = () => file.prepare('select count(*) from leads_search_pending').pluck().get() as number;
        expect(pending()).toBe(3);
        await hot.close();
        expect(pending()).toBe(0);
        const found = file.prepare(`select l.name from leads_search s join leads l on l.rowid = s.rowid where leads_search match '"ebu" AND "lon"'`).pluck().all();
        expect(found).toEqual(['Zebulon Quill']);
      } finally {
        file.close();
        await hot.close();
      }
    });

    it('indexes the leads it stored once it is idle, with no further write to prompt it', async () => {
      const source = await world.store.db.selectFrom('lead_sources').selectAll().where('token', '=', ws.source.token).executeTakeFirstOrThrow();
      await Promise.all(['a', 'b'].map((name) => world.store.hot.write({ kind: 'lead', lead: leadRow(source, name), done: null })));
      const file = new BetterSqlite3(world.testDb.url, { readonly: true });
      try {
        const pending = () => file.prepare('select count(*) from leads_search_pending').pluck().get() as number;
        const deadline = Date.now() + 10_000;
        while (pending() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(pending()).toBe(0);
        expect(file.prepare('select count(*) from leads_search').pluck().get()).toBe(2);
      } finally {
        file.close();
      }
    });

    it('a generic write in a process without a writer thread (a CLI run) indexes the leads it stored itself', async () => {
      const source = await world.store.db.selectFrom('lead_sources').selectAll().where('token', '=', ws.source.token).executeTakeFirstOrThrow();
      expect((world.store.hot as SqliteHotWriter).threaded).toBe(false);
      await world.store.writer.write((trx) =>
        trx
          .insertInto('leads')
          .values(['Zebulon Quill', 'Xanthe Marsh'].map((name) => ({ ...leadRow(source, name), workspace_id: source.workspace_id, stage: 'inbox' })))
          .execute(),
      );
      const file = new BetterSqlite3(world.testDb.url, { readonly: true });
      try {
        expect(file.prepare('select count(*) from leads_search_pending').pluck().get()).toBe(0);
        const found = file.prepare(`select l.name from leads_search s join leads l on l.rowid = s.rowid where leads_search match '"ebu" AND "lon"'`).pluck().all();
        expect(found).toEqual(['Zebulon Quill']);
      } finally {
        file.close();
      }
    });

    it('a writer thread that dies fails every write in flight, never acknowledges it, and the next write starts a new one', async () => {
      const hot = world.store.hot as SqliteHotWriter;
      await write(newId('scan'));
      const inFlight = Array.from({ length: 20 }, () => write(newId('scan')));
      await new Promise((resolve) => setImmediate(resolve));
      await hot.terminate();
      const outcomes = await Promise.allSettled(inFlight);
      const acknowledged = outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(acknowledged).toBeLessThan(outcomes.length);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(StorageUnavailableError);
      // Whatever was acknowledged is stored; nothing else is claimed.
      expect((await scanIds()).length).toBeGreaterThanOrEqual(1 + acknowledged);
      await expect(write(newId('scan'))).resolves.toEqual({ kind: 'stored', stored: true });
    });

    it('generic writes wait for the thread to be idle and both commit', async () => {
      const results = await Promise.all([
        ...Array.from({ length: 30 }, () => write(newId('scan'))),
        world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'generic', value: 'v' }).execute()),
        ...Array.from({ length: 30 }, () => write(newId('scan'))),
      ]);
      expect(results).toHaveLength(61);
      expect((await scanIds()).length).toBe(60);
      expect(await world.store.db.selectFrom('app_meta').select('key').where('key', '=', 'generic').execute()).toHaveLength(1);
    });

    it('the checkpoint thread keeps the WAL small while the writer commits (the writer itself would wait for 32 MB)', async () => {
      const body = Buffer.alloc(64 * 1024, 'x');
      const big = (id: string) => world.store.hot.write({ kind: 'scan', scan: { ...scan(id), raw: Buffer.from(body), byte_size: body.length }, rooms: [], done: null });
      // 24 MB in 48 rounds, a little over the checkpoint interval apart.
      for (let round = 0; round < 48; round += 1) {
        await Promise.all(Array.from({ length: 8 }, () => big(newId('scan'))));
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      expect((await scanIds()).length).toBe(48 * 8);
      expect(fs.statSync(`${world.testDb.url}-wal`).size).toBeLessThan(8 * 1024 * 1024);
    });
  }
});
