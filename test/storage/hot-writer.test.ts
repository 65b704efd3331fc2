import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { SearchIndex, searchIndexFile } from '../../src/storage/search-index.js';
import { SqliteHotWriter } from '../../src/storage/sqlite-hot-writer.js';
import { StorageUnavailableError } from '../../src/storage/storage-errors.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { leadRow, scanRow } from '../helpers/hot-rows.js';
import { handOver } from '../../src/storage/hot-writes/scan.js';

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
  const write = (id: string) =>
    world.store.hot.write({ kind: 'scan', scan: scan(id), rooms: [{ name: 'A', start: 10, end: 17 }], done: null });
  const scanIds = async () =>
    (await world.store.db.selectFrom('scans').select('id').orderBy('id').execute()).map((r) => r.id);

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
    const source = await world.store.db
      .selectFrom('lead_sources')
      .selectAll()
      .where('token', '=', ws.source.token)
      .executeTakeFirstOrThrow();
    const lead = (name: string, pipeline = source.pipeline_id) => leadRow(source, name, pipeline);
    const results = await Promise.all([
      world.store.hot.write({ kind: 'lead', lead: lead('a'), done: null }),
      world.store.hot.write({ kind: 'lead', lead: lead('moved', 'pl_elsewhere'), done: null }),
      world.store.hot.write({ kind: 'lead', lead: lead('b'), done: null }),
    ]);
    expect(results.map((r) => r.stored)).toEqual([true, false, true]);
    const stored = await world.store.db
      .selectFrom('leads')
      .select(['name', 'workspace_id', 'stage'])
      .orderBy('name')
      .execute();
    expect(stored).toEqual([
      { name: 'a', workspace_id: ws.workspaceId, stage: 'inbox' },
      { name: 'b', workspace_id: ws.workspaceId, stage: 'inbox' },
    ]);
  });

  if (backend === 'sqlite') {
    /** The rowids the search index file holds under every trigram of `word`, once the index has caught up. */
    const indexedUnder = async (word: string) => {
      const file = new BetterSqlite3(searchIndexFile(world.testDb.url), { readonly: true });
      const app = new BetterSqlite3(world.testDb.url, { readonly: true });
      try {
        const caughtUp = () => {
          const built = file.prepare("select count(*) from sqlite_master where name = 'state'").pluck().get() === 1;
          const upTo = built ? (file.prepare('select indexed_upto from state').pluck().get() as number) : -1;
          return upTo >= ((app.prepare('select max(rowid) from leads').pluck().get() as number | null) ?? 0);
        };
        const deadline = Date.now() + 10_000;
        while (!caughtUp() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        const trigrams = Array.from({ length: word.length - 2 }, (_, i) => `"${word.slice(i, i + 3)}"`).join(' AND ');
        const rowids = file
          .prepare('select rowid from leads_folded where leads_folded match ?')
          .pluck()
          .all(trigrams) as number[];
        return rowids.map((rowid) => app.prepare('select name from leads where rowid = ?').pluck().get(rowid));
      } finally {
        file.close();
        app.close();
      }
    };

    it('the search index thread indexes what the writer stores, in a file of its own, with no write to prompt it', async () => {
      const source = await world.store.db
        .selectFrom('lead_sources')
        .selectAll()
        .where('token', '=', ws.source.token)
        .executeTakeFirstOrThrow();
      const names = ['Zebulon Quill', 'Xanthe Marsh', 'Yusuf Brand'];
      await Promise.all(
        names.map((name) => world.store.hot.write({ kind: 'lead', lead: leadRow(source, name), done: null })),
      );
      expect(await indexedUnder('ebulon')).toEqual(['Zebulon Quill']);
      // The database holds no index of its own any more (migration 0009), only the change log, its triggers and the
      // highest rowid deleted (migration 0026).
      const tables = await sql<{
        name: string;
      }>`select name from sqlite_master where name like 'leads_search%' order by name`.execute(world.store.db);
      expect(tables.rows.map((r) => r.name)).toEqual([
        'leads_search_changes',
        'leads_search_delete',
        'leads_search_mark',
        'leads_search_reused',
        'leads_search_update',
      ]);
    });

    it('a generic write in a process without a writer thread (a CLI run) takes the leads it deleted out of the index', async () => {
      const source = await world.store.db
        .selectFrom('lead_sources')
        .selectAll()
        .where('token', '=', ws.source.token)
        .executeTakeFirstOrThrow();
      await world.store.writer.write((trx) =>
        trx
          .insertInto('leads')
          .values(
            ['Zebulon Quill', 'Zebulon Marsh'].map((name) => ({
              ...leadRow(source, name),
              workspace_id: source.workspace_id,
              stage: 'inbox',
            })),
          )
          .execute(),
      );
      const built = new SearchIndex(world.testDb.url, { rebuild: true });
      while (built.step() > 0);
      built.close();
      expect((world.store.hot as SqliteHotWriter).threaded).toBe(false);
      await world.store.writer.write((trx) => trx.deleteFrom('leads').where('name', '=', 'Zebulon Quill').execute());
      expect(await indexedUnder('ebulon')).toEqual(['Zebulon Marsh']);
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
      expect(
        await world.store.db.selectFrom('app_meta').select('key').where('key', '=', 'generic').execute(),
      ).toHaveLength(1);
    });

    it('the checkpoint thread keeps the WAL small while the writer commits (the writer itself would wait for 32 MB)', async () => {
      const body = Buffer.alloc(64 * 1024, 'x');
      const big = (id: string) =>
        world.store.hot.write({
          kind: 'scan',
          scan: { ...scan(id), raw: handOver(Buffer.from(body)), byte_size: body.length },
          rooms: [],
          done: null,
        });
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
