import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backfillOutcomes } from '../../src/storage/migrations/0047-follow-ups-and-report.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { reportWorkspace, threeMonthsOfQuotes } from '../domain/reports/report-fixtures.js';

/**
 * Migration 0047 on a database that already has quotes: what it counts for them is what the quote verbs would have
 * written as they happened. The rows the verbs wrote are taken away (the triggers empty the monthly counts with
 * them), the migration's backfill runs, and both tables come back as they were.
 */
describeEachBackend('migration 0047 counts the quotes sent before it', (backend) => {
  let world: TestWorld;

  beforeAll(async () => {
    const clock = new TestClock(Date.parse('2026-07-01T12:00:00Z'));
    world = await createWorld(backend, { clock });
    await threeMonthsOfQuotes(world, clock, await reportWorkspace(world, 'Bright Floors'));
  }, 120_000);
  afterAll(async () => world.close());

  const rows = async () => ({
    outcomes: (await world.store.db.selectFrom('quote_outcomes').selectAll().orderBy('chain_id').execute()).map(
      (r) => ({
        ...r,
        value: Number(r.value),
      }),
    ),
    months: (
      await world.store.db
        .selectFrom('quote_report_months')
        .selectAll()
        .orderBy(['month', 'source_id', 'utm_source', 'utm_campaign', 'currency', 'answer_days'])
        .execute()
    ).map((r) => ({ ...r, value_sent: Number(r.value_sent), value_won: Number(r.value_won) })),
  });

  it('gives every sent quote its outcome, and the triggers the same monthly counts', async () => {
    const written = await rows();
    expect(written.outcomes.length).toBe(11);
    expect(written.months.length).toBeGreaterThan(5);
    await world.store.db.deleteFrom('quote_outcomes').execute();
    expect((await rows()).months).toEqual([]);
    await backfillOutcomes(world.store.db as unknown as Kysely<unknown>);
    expect(await rows()).toEqual(written);
  });
});
