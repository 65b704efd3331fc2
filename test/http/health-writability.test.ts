import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/**
 * /healthz answers for the database's writability (docs/operations.md, "Health"): a test write, cached a second of
 * the domain clock, and 503 with the reason when the database cannot write. Read-only is made for real: SQLite's
 * connection set to query_only, PostgreSQL's database set to read-only transactions (as a standby is).
 */
describeEachBackend('GET /healthz: the database takes writes', (backend) => {
  let world: TestWorld;
  let app: App;
  const clock = new TestClock(Date.parse('2026-05-01T09:00:00.000Z'));

  beforeAll(async () => {
    world = await createWorld(backend, { clock });
    app = await world.app();
  });
  afterAll(async () => {
    await world?.close();
  });

  const health = () => app.inject({ method: 'GET', url: '/healthz' });
  const metaKeys = async () =>
    (await world.store.db.selectFrom('app_meta').select('key').orderBy('key').execute()).map((r) => r.key);

  /** Sets or clears read-only for every connection the app uses. */
  async function readOnly(on: boolean): Promise<void> {
    if (backend === 'sqlite') {
      await sql.raw(`pragma query_only = ${on ? 1 : 0}`).execute(world.store.db);
      return;
    }
    // As an operator's failover to a standby would: every new transaction read-only, the old connections gone.
    const admin = new pg.Client({ connectionString: world.testDb.url });
    await admin.connect();
    try {
      await admin.query('set default_transaction_read_only = off');
      const name = (await admin.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
      await admin.query(`alter database "${name}" set default_transaction_read_only = ${on ? 'on' : 'off'}`);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
    } finally {
      await admin.end();
    }
  }

  /** Health after the cached answer has run out: bounded, for PostgreSQL's pool to drop the connections cut above. */
  async function freshHealth(until: (status: number, detail: string) => boolean) {
    for (let attempt = 0; ; attempt += 1) {
      clock.advance(1000);
      const res = await health();
      const detail = res.statusCode === 200 ? '' : String((res.json() as { detail?: string }).detail);
      if (until(res.statusCode, detail) || attempt === 20) return res;
    }
  }

  it('answers 200 writable, leaves no row behind, and probes at most once a second', async () => {
    const before = await metaKeys();
    const res = await health();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, database: 'writable' });
    expect(await metaKeys()).toEqual(before);

    // Made read-only within the same second: the answer is the cached one (one test write a second, however hard
    // a monitor polls); concurrent callers share it.
    await readOnly(true);
    const cached = await Promise.all(Array.from({ length: 5 }, () => health()));
    expect(cached.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);

    const refused = await freshHealth((status, detail) => status === 503 && detail.includes('read-only'));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({
      ok: false,
      status: 503,
      code: 'service_unavailable',
      detail: expect.stringMatching(/^The database cannot take writes: it is read-only/),
    });
    // /readyz still says the database answers: it reads.
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    await readOnly(false);
    const back = await freshHealth((status) => status === 200);
    expect(back.statusCode).toBe(200);
    expect(await metaKeys()).toEqual(before);
  });

  it('answers 503 "does not answer" once the database is gone', async () => {
    await world.store.db.destroy();
    const res = await freshHealth((status) => status === 503);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable' });
    expect((res.json() as { detail: string }).detail).toMatch(/^The database cannot take writes: /);
    expect(res.body).not.toMatch(/sqlite|app_meta|destroyed|insert/i);
  });
});
