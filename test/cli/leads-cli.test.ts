import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('leads list / move / export and stages through the real CLI', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let env: Record<string, string>;
  const ids: string[] = [];

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const app = await world.app();
    for (const [name, phone] of [
      ['Ada', '+44 20 7946 0958'],
      ['=cmd|calc', '555 0101'],
      ['Cy', '555 0102'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${seeded.source.token}`,
        payload: { name, phone },
      });
      expect(res.statusCode).toBe(200);
      ids.push(res.json<{ id: string }>().id);
    }
  });
  afterAll(async () => {
    await world.close();
  });

  it('lists with filters and pages with --cursor (the cursor on stderr)', async () => {
    const ws = ['--workspace', seeded.workspaceId];
    const all = await cliJson<Array<{ id: string; isNew: boolean; stageName: string }>>(['leads', 'list', ...ws], env);
    expect(all.map((l) => l.id)).toEqual([...ids].reverse());
    expect(all.every((l) => l.isNew && l.stageName === 'Inbox')).toBe(true);

    expect(
      (await cliJson<Array<{ id: string }>>(['leads', 'list', ...ws, '--search', '7946'], env)).map((l) => l.id),
    ).toEqual([ids[0]]);

    const first = await runCli(['leads', 'list', ...ws, '--pipeline', 'Sales', '--limit', '2', '--json'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).map((l: { id: string }) => l.id)).toEqual([ids[2], ids[1]]);
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeTruthy();
    const next = await runCli(['leads', 'list', ...ws, '--limit', '2', '--cursor', cursor!, '--json'], env);
    expect(JSON.parse(next.stdout).map((l: { id: string }) => l.id)).toEqual([ids[0]]);
    expect(next.stderr).not.toContain('--cursor');

    const human = await runCli(['leads', 'list', ...ws, '--source', 'Website form'], env);
    expect(human.stdout).toContain(ids[0]);
    expect(human.stdout).toContain('new');

    const bad = await runCli(['leads', 'list', ...ws, '--stage', 'Nowhere', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'stage_not_found' });
  });

  it('moves a lead, recording "cli" in its history, and filters by the new stage', async () => {
    const moved = await cliJson<{ moved: { toName: string; byLabel: string } }>(
      ['leads', 'move', ids[1]!, '--stage', 'Contacted'],
      env,
    );
    expect(moved.moved).toMatchObject({ toName: 'Contacted', byLabel: 'cli' });
    const shown = await cliJson<{
      stage: string;
      history: Array<{ fromName: string; toName: string; byLabel: string }>;
    }>(['leads', 'show', ids[1]!], env);
    expect(shown.stage).toBe('contacted');
    expect(shown.history).toEqual([
      expect.objectContaining({ fromName: 'Inbox', toName: 'Contacted', byLabel: 'cli' }),
    ]);
    const contacted = await cliJson<Array<{ id: string }>>(
      ['leads', 'list', '--workspace', seeded.workspaceId, '--stage', 'contacted'],
      env,
    );
    expect(contacted.map((l) => l.id)).toEqual([ids[1]]);
    const missing = await runCli(
      ['leads', 'move', 'lead_00000000000000000000000000000000', '--stage', 'won', '--json'],
      env,
    );
    expect(JSON.parse(missing.stdout)).toMatchObject({ code: 'lead_not_found' });
  });

  it('exports the filtered set as CSV on stdout', async () => {
    const out = await runCli(['leads', 'export', '--workspace', seeded.workspaceId, '--search', '555'], env);
    expect(out.code).toBe(0);
    expect([...out.stdoutBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(out.stdoutBytes, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect(records.find((r) => r.id === ids[1])).toMatchObject({ name: "'=cmd|calc", phone: '555 0101' });
  });

  it('manages stages: add, rename, order, remove with --move-to', async () => {
    const p = ['--workspace', seeded.workspaceId, '--pipeline', 'Sales'];
    await cliJson(['stages', 'add', 'Site visit', ...p], env);
    await cliJson(['stages', 'rename', 'quoted', 'Estimate sent', ...p], env);
    await cliJson(['stages', 'order', 'Inbox', 'Site visit', 'Contacted', 'Estimate sent', 'Won', 'Lost', ...p], env);
    const refused = await runCli(['stages', 'remove', 'Contacted', ...p, '--json'], env);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'stage_not_empty' });
    await cliJson(['stages', 'remove', 'Contacted', '--move-to', 'Site visit', ...p], env);
    const stages = await cliJson<Array<{ name: string; leads: number }>>(['stages', 'list', ...p], env);
    expect(stages.map((s) => [s.name, s.leads])).toEqual([
      ['Inbox', 2],
      ['Site visit', 1],
      ['Estimate sent', 0],
      ['Won', 0],
      ['Lost', 0],
    ]);
  });
});
