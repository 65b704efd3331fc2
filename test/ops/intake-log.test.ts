import { afterEach, expect, it } from 'vitest';
import { IntakeLog } from '../../src/domain/intake-log/intake-outcomes.js';
import { sourceStats } from '../../src/domain/intake-log/source-stats.js';
import type { DomainContext } from '../../src/domain/context.js';
import { openDatabase } from '../../src/storage/database.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('intake log per source', (backend) => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('counts accepted, quarantined and refused by code per day, and source stats shows them', async () => {
    world = await createWorld(backend, { env: { INTAKE_RATE_LIMIT: '4' } });
    const app = await world.app();
    const { source } = await world.seed();
    const other = await world.seed('Other');
    const post = (token: string, payload: Record<string, string>) =>
      app.inject({ method: 'POST', url: `/api/intake/${token}`, payload, remoteAddress: '203.0.113.9' });
    expect((await post(source.token, { name: 'Ada' })).statusCode).toBe(200);
    expect((await post(source.token, { notes: 'nothing to reach' })).statusCode).toBe(400);
    expect((await post(source.token, { name: 'Bot', website: 'x' })).statusCode).toBe(200);
    expect((await post(source.token, { email: 'c@example.com' })).statusCode).toBe(200);
    // The fifth within the minute is refused before the source is looked up: counted by its token.
    expect((await post(source.token, { name: 'Late' })).statusCode).toBe(429);
    // The hosted form counts too.
    const form = await app.inject({
      method: 'POST',
      url: `/f/${other.source.token}`,
      payload: { notes: 'no contact' },
      headers: { 'content-type': 'application/json' },
    });
    expect(form.statusCode).toBe(400);
    // Unknown tokens belong to nobody's form and are not logged.
    expect((await post('00000000-0000-4000-8000-000000000000', { name: 'x' })).statusCode).toBe(404);

    await app.intakeLog.flush();
    const stats = await sourceStats({ ctx: world.ctx, input: { source: source.id } });
    const today = new Date().toISOString().slice(0, 10);
    expect(stats).toEqual({
      id: source.id,
      token: source.token,
      name: 'Website form',
      days: [{ day: today, accepted: 2, quarantined: 1, refused: 2, refusedBy: { missing_contact: 1, rate_limited: 1 } }],
    });
    expect((await sourceStats({ ctx: world.ctx, input: { source: other.source.token } })).days).toEqual([
      { day: today, accepted: 0, quarantined: 0, refused: 1, refusedBy: { missing_contact: 1 } },
    ]);
    const rows = await world.store.db.selectFrom('intake_log').select('source_id').distinct().execute();
    expect(rows.map((r) => r.source_id).sort()).toEqual([source.id, other.source.id].sort());

    // Through the real CLI, by token.
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    expect(await cliJson(['source', 'stats', source.token], env)).toEqual(stats);
  }, 60_000);

  it('flushes add up (several instances), per UTC day, and failed flushes keep their counts', async () => {
    const clock = new TestClock(Date.parse('2026-03-01T23:59:59.000Z'));
    world = await createWorld(backend, { clock });
    const { source } = await world.seed();
    const first = new IntakeLog(world.ctx);
    const second = new IntakeLog(world.ctx);
    first.record({ sourceId: source.id, outcome: 'accepted', code: '' });
    second.record({ sourceId: source.id, outcome: 'accepted', code: '' });
    second.record({ token: source.token.toUpperCase(), outcome: 'refused', code: 'rate_limited' });
    await first.flush();
    await second.flush();
    clock.advance(2000);
    first.record({ sourceId: source.id, outcome: 'accepted', code: '' });
    await first.stop();

    // A flush that fails (the database away) keeps its counts for the next one.
    const away = openDatabase(world.config.database);
    await away.close();
    const ctx: DomainContext = { ...world.ctx, store: away };
    const third = new IntakeLog(ctx);
    third.record({ sourceId: source.id, outcome: 'quarantined', code: 'honeypot' });
    await expect(third.flush()).rejects.toThrow();
    ctx.store = world.store;
    await third.flush();

    const stats = await sourceStats({ ctx: world.ctx, input: { source: source.id } });
    expect(stats.days).toEqual([
      { day: '2026-03-02', accepted: 1, quarantined: 1, refused: 0, refusedBy: {} },
      { day: '2026-03-01', accepted: 2, quarantined: 0, refused: 1, refusedBy: { rate_limited: 1 } },
    ]);
  });
});
