import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('spam rules and Mark as spam through the real CLI', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
  });
  afterAll(async () => {
    await world.close();
  });

  it('source block|unblock|rules edit the lists; a matching post lands in Quarantine as blocked_rule', async () => {
    const blocked = await cliJson<{ rules: Record<string, string[]> }>(
      [
        'source',
        'block',
        seeded.source.id,
        '--word',
        'Casino',
        '--email',
        'Spam@Example.com',
        '--domain',
        'junk.example',
      ],
      env,
    );
    expect(blocked.rules).toEqual({
      blockedEmails: ['spam@example.com'],
      blockedDomains: ['junk.example'],
      blockedWords: ['casino'],
      allowedSites: [],
    });
    await cliJson(['source', 'unblock', seeded.source.token, '--domain', 'JUNK.example'], env);
    const shown = await runCli(['source', 'rules', seeded.source.id], env);
    expect(shown.stdout).toContain('blocked words:   casino');
    expect(shown.stdout).toContain('blocked domains: -');
    const refused = await runCli(['source', 'block', seeded.source.id, '--email', 'not-an-email'], env);
    expect(refused.code).toBe(1);

    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      payload: { name: 'Casino king' },
    });
    expect(res.statusCode).toBe(200);
    const list = await cliJson<Array<Record<string, unknown>>>(
      ['quarantine', 'list', '--workspace', seeded.workspaceId],
      env,
    );
    expect(list.map((q) => [q.reason, q.detail])).toEqual([['blocked_rule', 'word casino']]);
  }, 120_000);

  it('leads spam moves a lead to Quarantine (marked_spam, by cli); quarantine restore brings it back under its id', async () => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      payload: { name: 'Real Ruth', phone: '555 0100 777' },
    });
    const leadId = (res.json() as { id: string }).id;
    const marked = await cliJson<{ quarantineId: string; leadId: string }>(['leads', 'spam', leadId], env);
    expect(marked.leadId).toBe(leadId);
    const leads = await cliJson<Array<{ id: string }>>(['leads', 'list', '--workspace', seeded.workspaceId], env);
    expect(leads.map((l) => l.id)).not.toContain(leadId);
    const list = await cliJson<Array<Record<string, unknown>>>(
      ['quarantine', 'list', '--workspace', seeded.workspaceId],
      env,
    );
    expect(list[0]).toMatchObject({
      id: marked.quarantineId,
      reason: 'marked_spam',
      detail: 'cli',
      fields: { name: 'Real Ruth' },
    });
    const restored = await cliJson<{ leadId: string }>(['quarantine', 'restore', marked.quarantineId], env);
    expect(restored.leadId).toBe(leadId);
    const again = await cliJson<Array<{ id: string; name: string }>>(
      ['leads', 'list', '--workspace', seeded.workspaceId],
      env,
    );
    expect(again.find((l) => l.id === leadId)?.name).toBe('Real Ruth');
    const missing = await runCli(['leads', 'spam', 'lead_00000000000000000000000000000000'], env);
    expect(missing.code).toBe(1);
  }, 120_000);
});
