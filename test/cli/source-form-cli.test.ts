import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('leadscan source form (spawned CLI)', (backend) => {
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
    const work = await cliJson<{ id: string }>(['source', 'add-field', id, '--kind', 'choice', '--label', 'Type of work', '--option', 'Kitchen', 'Roof', '--required'], env);
    const date = await cliJson<{ id: string }>(['source', 'add-field', id, '--kind', 'date', '--label', 'Preferred date'], env);
    const moved = await cliJson<{ fields: Array<{ id: string; label: string }> }>(['source', 'move-field', id, date.id, '--up'], env);
    expect(moved.fields.map((f) => f.label)).toEqual(['Preferred date', 'Type of work']);
    const refused = await runCli(['source', 'add-field', id, '--kind', 'choice', '--label', 'One', '--option', 'Only', '--json'], env);
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
});
