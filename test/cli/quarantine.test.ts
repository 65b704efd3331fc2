import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Clock } from '../../src/domain/context.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('honeypot → quarantine → restore through the real CLI', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let env: Record<string, string>;
  // Submissions are received at a known time, well before the CLI runs.
  const receivedAt = new Date(Date.now() - 5 * 24 * 60 * 60 * 1000);
  const clock: Clock = { now: () => receivedAt };

  beforeAll(async () => {
    world = await createWorld(backend, { clock });
    seeded = await world.seed();
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
  });
  afterAll(async () => {
    await world.close();
  });

  it('lists the catch and restores it as a lead with the original received time, once', async () => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Autofill Browser' },
      payload: 'name=Jo+Real&email=jo%40example.com&website=https%3A%2F%2Fjo.example&notes=Call+after+5',
    });
    expect(res.statusCode).toBe(200);
    expect(await cliJson(['leads', 'list', '--workspace', seeded.workspaceId], env)).toEqual([]);

    const list = await cliJson<Array<Record<string, unknown>>>(
      ['quarantine', 'list', '--workspace', seeded.workspaceId],
      env,
    );
    expect(list).toHaveLength(1);
    const item = list[0]!;
    expect(item).toMatchObject({
      sourceId: seeded.source.id,
      reason: 'honeypot',
      fields: { name: 'Jo Real', email: 'jo@example.com', website: 'https://jo.example', notes: 'Call after 5' },
      receivedAt: receivedAt.toISOString(),
    });
    expect(item.id).not.toBe(res.json().id);

    const restored = await cliJson<{ leadId: string }>(['quarantine', 'restore', String(item.id)], env);
    expect(restored.leadId).toMatch(/^lead_[0-9a-f]{32}$/);
    const leads = await cliJson<Array<Record<string, unknown>>>(
      ['leads', 'list', '--workspace', seeded.workspaceId],
      env,
    );
    expect(leads).toEqual([
      expect.objectContaining({
        id: restored.leadId,
        name: 'Jo Real',
        email: 'jo@example.com',
        notes: 'Call after 5',
        extra: {},
        receivedAt: receivedAt.toISOString(),
      }),
    ]);
    const row = await world.store.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', restored.leadId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_agent: 'Autofill Browser', restored_from: item.id });

    const again = await runCli(['quarantine', 'restore', String(item.id), '--json'], env);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, code: 'already_restored' });
    expect(again.stderr).toContain('already restored');
    expect(await cliJson(['leads', 'list', '--workspace', seeded.workspaceId], env)).toHaveLength(1);
  });

  it('lists in pages with --limit and --offset, and says on stderr how to get the next page', async () => {
    const app = await world.app();
    for (const name of ['Paged A', 'Paged B', 'Paged C']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${seeded.source.token}`,
        payload: { name, website: 'filled' },
      });
      expect(res.statusCode).toBe(200);
    }
    const all = await cliJson<Array<{ id: string }>>(['quarantine', 'list', '--workspace', seeded.workspaceId], env);
    const list = (...args: string[]) =>
      runCli(['quarantine', 'list', '--workspace', seeded.workspaceId, '--json', ...args], env);

    const first = await list('--limit', '2');
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as Array<{ id: string }>).map((i) => i.id)).toEqual(
      all.slice(0, 2).map((i) => i.id),
    );
    expect(first.stderr).toContain('More: add --offset 2');
    const rest = await list('--limit', '2', '--offset', '2');
    expect((JSON.parse(rest.stdout) as Array<{ id: string }>).map((i) => i.id)).toEqual(
      all.slice(2, 4).map((i) => i.id),
    );
    expect(rest.stderr).toBe(all.length > 4 ? 'More: add --offset 4\n' : '');

    const tooMany = await list('--limit', '10001');
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('must be at most 10000');
    const scans = await runCli(['scans', 'list', '--workspace', seeded.workspaceId, '--json', '--offset', '-1'], env);
    expect(scans.code).not.toBe(0);
    expect(scans.stderr).toContain('must be a whole number (0 or more)');
  });
});
