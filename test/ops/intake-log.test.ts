import crypto from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { IntakeLog, MAX_KEYS, MAX_TOKEN_KEYS } from '../../src/domain/intake-log/intake-outcomes.js';
import { sourceStats } from '../../src/domain/intake-log/source-stats.js';
import { parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import type { DomainContext } from '../../src/domain/context.js';
import { openDatabase } from '../../src/storage/database.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { agedStamp } from '../helpers/form-stamp.js';

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
      payload: { notes: 'no contact', formStamp: agedStamp(world, other.source.id) },
      headers: { 'content-type': 'application/json' },
    });
    expect(form.statusCode).toBe(400);
    // Unknown tokens belong to nobody's form and are not logged.
    expect((await post('00000000-0000-4000-8000-000000000000', { name: 'x' })).statusCode).toBe(404);

    await app.intakeLog.flush();
    const stats = await sourceStats({ ctx: world.ctx, input: { sourceId: source.id } });
    const today = new Date().toISOString().slice(0, 10);
    expect(stats).toEqual({
      id: source.id,
      token: source.token,
      name: 'Website form',
      days: [
        { day: today, accepted: 2, quarantined: 1, refused: 2, refusedBy: { missing_contact: 1, rate_limited: 1 } },
      ],
    });
    expect((await sourceStats({ ctx: world.ctx, input: { sourceId: other.source.id } })).days).toEqual([
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
    second.record({ token: parseIntakeToken(source.token.toUpperCase()), outcome: 'refused', code: 'rate_limited' });
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

    const stats = await sourceStats({ ctx: world.ctx, input: { sourceId: source.id } });
    expect(stats.days).toEqual([
      { day: '2026-03-02', accepted: 1, quarantined: 1, refused: 0, refusedBy: {} },
      { day: '2026-03-01', accepted: 2, quarantined: 0, refused: 1, refusedBy: { rate_limited: 1 } },
    ]);
  });

  it('a flood of refusals with random tokens: memory bounded, real sources still counted', async () => {
    world = await createWorld(backend);
    const { source } = await world.seed();
    const log = new IntakeLog(world.ctx);
    // Well-formed tokens that name no source, far more than may wait in memory.
    for (let i = 0; i < 50_000; i += 1)
      log.record({ token: parseIntakeToken(crypto.randomUUID()), outcome: 'refused', code: 'rate_limited' });
    expect(log.pending).toBe(MAX_TOKEN_KEYS);
    expect(log.dropped).toBe(50_000 - MAX_TOKEN_KEYS);
    // A real source's counts (known by id once looked up) still get in.
    log.record({ sourceId: source.id, outcome: 'accepted', code: '' });
    await log.flush();
    const rows = await world.store.db.selectFrom('intake_log').selectAll().execute();
    expect(rows.map((r) => [r.source_id, r.outcome, Number(r.count)])).toEqual([[source.id, 'accepted', 1]]);
    expect(log.pending).toBe(0);

    // Many real counters at once: more rows than SQLite binds in one statement, written in chunks.
    const busy = new IntakeLog(world.ctx);
    for (let day = 0; day < 8_000; day += 1)
      busy.record({ sourceId: source.id, outcome: 'refused', code: `code_${day}` });
    await busy.flush();
    expect(
      Number(
        (
          await world.store.db
            .selectFrom('intake_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(8_001);

    // A flush that keeps failing (the database away) never holds more than the bound.
    const away = openDatabase(world.config.database);
    await away.close();
    const failing = new IntakeLog({ ...world.ctx, store: away });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      for (let i = 0; i < MAX_KEYS; i += 1)
        failing.record({ sourceId: source.id, outcome: 'refused', code: `c${attempt}_${i}` });
      await expect(failing.flush()).rejects.toThrow();
      expect(failing.pending).toBeLessThanOrEqual(MAX_KEYS);
    }
  }, 60_000);
});
