import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('leads note / assign / follow-up through the real CLI', (backend) => {
  let world: TestWorld;
  let home: Seeded;
  let env: Record<string, string>;
  let leadId: string;

  beforeAll(async () => {
    world = await createWorld(backend);
    home = await world.seed('Home');
    const away = await world.seed('Away');
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    await createUser({
      ctx: world.ctx,
      input: { email: 'mia@home.example', workspaceId: home.workspaceId, displayName: 'Mia' },
    });
    await createUser({ ctx: world.ctx, input: { email: 'sam@away.example', workspaceId: away.workspaceId } });
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${home.source.token}`,
      payload: { name: 'Ada', phone: '555 0100' },
    });
    leadId = res.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await world.close();
  });

  it('adds a note as "cli", shown newest first by leads show', async () => {
    expect(await cliJson(['leads', 'note', leadId, 'Called, back Tuesday'], env)).toMatchObject({
      leadId,
      authorLabel: 'cli',
      text: 'Called, back Tuesday',
    });
    const human = await runCli(['leads', 'note', leadId, 'Second note'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('text: Second note');
    const shown = await cliJson<{ internalNotes: Array<{ text: string }> }>(['leads', 'show', leadId], env);
    expect(shown.internalNotes.map((n) => n.text)).toEqual(['Second note', 'Called, back Tuesday']);
    const empty = await runCli(['leads', 'note', leadId, '  ', '--json'], env);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
  });

  it('assigns to a member by email, refuses a person of another workspace, and unassigns with --none', async () => {
    expect(await cliJson(['leads', 'assign', leadId, 'MIA@home.example'], env)).toMatchObject({
      changed: true,
      assignee: { email: 'mia@home.example', label: 'Mia' },
    });
    const ws = ['--workspace', home.workspaceId];
    expect(
      await cliJson<Array<{ id: string; assigneeEmail: string }>>(
        ['leads', 'list', ...ws, '--assignee', 'mia@home.example'],
        env,
      ),
    ).toEqual([expect.objectContaining({ id: leadId, assigneeEmail: 'mia@home.example' })]);
    expect(await cliJson(['leads', 'list', ...ws, '--assignee', 'none'], env)).toEqual([]);
    const listed = await runCli(['leads', 'list', ...ws], env);
    expect(listed.stdout).toContain('→ mia@home.example');

    const stranger = await runCli(['leads', 'assign', leadId, 'sam@away.example', '--json'], env);
    expect(stranger.code).toBe(1);
    expect(JSON.parse(stranger.stdout)).toMatchObject({ ok: false, code: 'member_not_found' });
    for (const args of [
      ['leads', 'assign', leadId],
      ['leads', 'assign', leadId, 'mia@home.example', '--none'],
    ]) {
      const usage = await runCli([...args, '--json'], env);
      expect(usage.code).toBe(1);
      expect(JSON.parse(usage.stdout)).toMatchObject({ ok: false, code: 'invalid_arguments' });
    }
    expect(await cliJson(['leads', 'assign', leadId, '--none'], env)).toMatchObject({ changed: true, assignee: null });
    const shown = await cliJson<{ events: Array<{ kind: string; value: string | null; byLabel: string }> }>(
      ['leads', 'show', leadId],
      env,
    );
    expect(shown.events).toEqual([
      expect.objectContaining({ kind: 'assigned', value: 'Mia', byLabel: 'cli' }),
      expect.objectContaining({ kind: 'assigned', value: null, byLabel: 'cli' }),
    ]);
  });

  it('sets a follow-up date, lists it as due once the day has come, and clears it', async () => {
    expect(await cliJson(['leads', 'follow-up', leadId, '2020-01-31'], env)).toMatchObject({
      followUpOn: '2020-01-31',
      changed: true,
    });
    const ws = ['--workspace', home.workspaceId];
    expect(
      (await cliJson<Array<{ id: string }>>(['leads', 'list', ...ws, '--follow-up-due'], env)).map((l) => l.id),
    ).toEqual([leadId]);
    const bad = await runCli(['leads', 'follow-up', leadId, '2020-02-30', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
    const both = await runCli(['leads', 'follow-up', leadId, '2020-01-31', '--clear', '--json'], env);
    expect(JSON.parse(both.stdout)).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(await cliJson(['leads', 'follow-up', leadId, '--clear'], env)).toMatchObject({
      followUpOn: null,
      changed: true,
    });
    expect(await cliJson(['leads', 'list', ...ws, '--follow-up-due'], env)).toEqual([]);
  });
});
