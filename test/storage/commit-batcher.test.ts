import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('group-commit writer', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  const insert = (id: string) =>
    world.store.writer.write((trx) =>
      trx.insertInto('app_meta').values({ key: id, value: 'v' }).returning('key').executeTakeFirstOrThrow(),
    );

  it('folds concurrent writes into fewer commits and acknowledges each after its commit', async () => {
    const before = { ...world.store.writer.stats };
    const ids = Array.from({ length: 200 }, (_, i) => `k${i}`);
    const results = await Promise.all(ids.map(insert));
    expect(results.map((r) => r.key)).toEqual(ids);
    const commits = world.store.writer.stats.commits - before.commits;
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(20);
    const stored = await world.store.db.selectFrom('app_meta').select('key').where('key', 'like', 'k%').execute();
    expect(stored).toHaveLength(200);
  });

  it('rolls back only the write that failed; the rest of the batch commits', async () => {
    await insert('dup');
    const outcomes = await Promise.allSettled([insert('a1'), insert('dup'), insert('a2')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const keys = (await world.store.db.selectFrom('app_meta').select('key').execute()).map((r) => r.key).sort();
    expect(keys).toEqual(['a1', 'a2', 'dup']);
  });

  it('a lone write that fails rejects with its own error and leaves nothing; the writer goes on', async () => {
    await insert('solo');
    await expect(
      world.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key: 'half', value: 'v' }).execute();
        throw new Error('domain check failed after a first insert');
      }),
    ).rejects.toThrow('domain check failed');
    expect(await world.store.db.selectFrom('app_meta').select('key').where('key', '=', 'half').execute()).toEqual([]);
    await expect(insert('after')).resolves.toEqual({ key: 'after' });
  });

  it('a write that hits a unique index runs once more on PostgreSQL (a race), then rejects with the violation', async () => {
    await insert('taken');
    let runs = 0;
    const outcome = world.store.writer.write(async (trx) => {
      runs += 1;
      await trx.insertInto('app_meta').values({ key: 'taken', value: 'again' }).execute();
    });
    // The key is still taken the second time: no race, and the write fails with the database's own error.
    await expect(outcome).rejects.toThrow(/unique|duplicate/i);
    // SQLite's writes are never raced (one writer): a violation there is never one to run again.
    expect(runs).toBe(backend === 'postgres' ? 2 : 1);
    await expect(insert('after')).resolves.toEqual({ key: 'after' });
  });

  it('a write that read before another connection wrote (the CLI beside the server) runs again and commits', async () => {
    await insert('seen');
    // Another process's connection to the same database, writing between this write's read and its own write.
    const other =
      backend === 'sqlite'
        ? (() => {
            const db = new BetterSqlite3(world.testDb.url);
            db.pragma('busy_timeout = 5000');
            return {
              insert: async (key: string) =>
                void db.prepare('insert into app_meta (key, value) values (?, ?)').run(key, 'o'),
              close: async () => db.close(),
            };
          })()
        : await (async () => {
            const client = new pg.Client({ connectionString: world.testDb.url });
            await client.connect();
            return {
              insert: async (key: string) =>
                void (await client.query('insert into app_meta (key, value) values ($1, $2)', [key, 'o'])),
              close: () => client.end(),
            };
          })();
    let runs = 0;
    try {
      await world.store.writer.write(async (trx) => {
        runs += 1;
        const count = await trx.selectFrom('app_meta').select('key').execute();
        if (runs === 1) await other.insert('from-the-cli');
        await trx
          .insertInto('app_meta')
          .values({ key: 'after-read', value: String(count.length) })
          .execute();
      });
    } finally {
      await other.close();
    }
    // SQLite refuses the stale snapshot's write at once (SQLITE_BUSY_SNAPSHOT): the write runs again, reading the
    // other row; PostgreSQL's READ COMMITTED writes the first time.
    expect(runs).toBe(backend === 'sqlite' ? 2 : 1);
    const rows = await world.store.db
      .selectFrom('app_meta')
      .select(['key', 'value'])
      .where('key', 'in', ['from-the-cli', 'after-read'])
      .orderBy('key')
      .execute();
    expect(rows.map((r) => r.key)).toEqual(['after-read', 'from-the-cli']);
  });

  it('a write that read while another process held the write lock (SQLite refuses its upgrade at once) runs again', async () => {
    // On SQLite another connection takes the write lock between this write's read and its own write, and commits a
    // moment later; on PostgreSQL it inserts a row of its own meanwhile, which locks nothing this write needs.
    const sqlite = backend === 'sqlite' ? new BetterSqlite3(world.testDb.url) : undefined;
    const client = sqlite ? undefined : new pg.Client({ connectionString: world.testDb.url });
    await client?.connect();
    let runs = 0;
    try {
      await world.store.writer.write(async (trx) => {
        runs += 1;
        await trx.selectFrom('app_meta').select('key').execute();
        if (runs === 1 && sqlite) {
          sqlite.exec('begin immediate');
          sqlite.prepare('insert into app_meta (key, value) values (?, ?)').run('held', 'o');
          setTimeout(() => sqlite.exec('commit'), 1);
        }
        if (runs === 1 && client) await client.query("insert into app_meta (key, value) values ('held', 'o')");
        await trx.insertInto('app_meta').values({ key: 'upgraded', value: 'v' }).execute();
      });
    } finally {
      sqlite?.close();
      await client?.end();
    }
    expect(runs > 1).toBe(backend === 'sqlite');
    const keys = await world.store.db
      .selectFrom('app_meta')
      .select('key')
      .where('key', 'in', ['held', 'upgraded'])
      .orderBy('key')
      .execute();
    expect(keys.map((r) => r.key)).toEqual(['held', 'upgraded']);
  });

  it('drains accepted writes on close and refuses new ones', async () => {
    const pending = Promise.all([insert('c1'), insert('c2')]);
    await world.store.writer.close();
    await expect(pending).resolves.toHaveLength(2);
    await expect(insert('late')).rejects.toThrow(/closed/);
  });
});
