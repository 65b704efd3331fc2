import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/**
 * The generic writer folds concurrent writes into one transaction. A write that has already written and then
 * throws must leave nothing behind, and the writes batched with it must still commit.
 */
describeEachBackend('writer isolation of a failing write inside a batch', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  const keys = async () =>
    (await world.store.db.selectFrom('app_meta').select('key').execute()).map((r) => r.key).sort();

  it('undoes what the failing write wrote, commits its neighbours, in one commit', async () => {
    const before = world.store.writer.stats.commits;
    const put = (key: string) =>
      world.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key, value: 'v' }).execute();
      });
    // Queued in the same event-loop turn: one batch.
    const outcomes = await Promise.allSettled([
      put('n1'),
      world.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key: 'half-1', value: 'v' }).execute();
        await trx.insertInto('app_meta').values({ key: 'half-2', value: 'v' }).execute();
        throw new Error('domain check failed after two inserts');
      }),
      put('n2'),
      put('n3'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(world.store.writer.stats.commits - before).toBe(1);
    expect(await keys()).toEqual(['n1', 'n2', 'n3']);
  });

  it('a write failing on a database error after writing leaves nothing; its neighbours commit', async () => {
    await world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'taken', value: 'v' }).execute());
    const outcomes = await Promise.allSettled([
      world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'm1', value: 'v' }).execute()),
      world.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key: 'written-then-dup', value: 'v' }).execute();
        await trx.insertInto('app_meta').values({ key: 'taken', value: 'again' }).execute();
      }),
      world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'm2', value: 'v' }).execute()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await keys()).toEqual(['m1', 'm2', 'taken']);
  });
});
