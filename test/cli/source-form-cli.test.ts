import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('leadscan source form and source built-in (spawned CLI)', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'https://leads.example.com' };
  });
  afterAll(async () => {
    await world.close();
  }, 120_000);

  it('adds, moves and removes fields and sets the colour, through the same verbs and rules as the editor', async () => {
    const id = seeded.source.id;
    const work = await cliJson<{ id: string }>(
      [
        'source',
        'add-field',
        id,
        '--kind',
        'choice',
        '--label',
        'Type of work',
        '--option',
        'Kitchen',
        'Roof',
        '--required',
      ],
      env,
    );
    const date = await cliJson<{ id: string }>(
      ['source', 'add-field', id, '--kind', 'date', '--label', 'Preferred date'],
      env,
    );
    const moved = await cliJson<{ fields: Array<{ id: string; label: string }> }>(
      ['source', 'move-field', id, date.id, '--up'],
      env,
    );
    expect(moved.fields.map((f) => f.label)).toEqual(['Preferred date', 'Type of work']);
    const refused = await runCli(
      ['source', 'add-field', id, '--kind', 'choice', '--label', 'One', '--option', 'Only', '--json'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
    const low = await runCli(['source', 'accent', id, '#ffff00', '--json'], env);
    expect(low.code).toBe(1);
    expect(await cliJson(['source', 'accent', id, '#0B6E4F'], env)).toEqual({ accent: '#0b6e4f' });
    const left = await cliJson<{ fields: Array<{ id: string }> }>(['source', 'remove-field', id, work.id], env);
    expect(left.fields.map((f) => f.id)).toEqual([date.id]);
    const plain = await runCli(['source', 'form', seeded.source.token], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('accent: #0b6e4f');
    expect(plain.stdout).toContain('Preferred date');
  });

  it("shapes the built-in fields through the editor's verbs: relabel, require, hide, move; the last contact field stays", async () => {
    // A workspace of its own: the test above has shaped the first one's form.
    const id = (await world.seed('Built-in')).source.id;
    await cliJson(['source', 'built-in', id, 'phone', '--label', 'Mobile', '--required'], env);
    await cliJson(['source', 'built-in', id, 'address', '--hide'], env);
    const form = await cliJson<{
      layout: {
        builtIns: Array<{ name: string; label: string | null; shown: boolean; required: boolean }>;
        order: string[];
      };
    }>(['source', 'move-field', id, 'phone', '--up'], env);
    expect(form.layout.order.slice(0, 3)).toEqual(['phone', 'name', 'email']);
    expect(form.layout.builtIns.find((b) => b.name === 'phone')).toEqual({
      name: 'phone',
      label: 'Mobile',
      shown: true,
      required: true,
    });
    expect(form.layout.builtIns.find((b) => b.name === 'address')).toMatchObject({ shown: false, required: false });
    // A hidden field cannot be required; the last of name, phone and email cannot be hidden.
    const hiddenRequired = await runCli(['source', 'built-in', id, 'phone', '--hide', '--json'], env);
    expect(JSON.parse(hiddenRequired.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
    await cliJson(['source', 'built-in', id, 'name', '--hide'], env);
    await cliJson(['source', 'built-in', id, 'email', '--hide'], env);
    const last = await runCli(['source', 'built-in', id, 'phone', '--hide', '--optional', '--json'], env);
    expect(last.code).toBe(1);
    expect(JSON.parse(last.stdout)).toMatchObject({
      ok: false,
      code: 'invalid_fields',
      detail: expect.stringContaining('at least one of Name, Phone, Email'),
    });
    const plain = await runCli(['source', 'form', id], env);
    expect(plain.stdout).toMatch(/phone\s+built-in\s+Mobile\s+yes\s+yes/);
  });
});
