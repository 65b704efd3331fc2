import { afterAll, beforeAll, expect, it } from 'vitest';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { recordServerBaseUrl } from '../../src/domain/server-base-url.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli, type CliResult } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

/** A refusal: exit 1, exactly one line on stderr, nothing on stdout; with --json the problem's code. */
async function refused(args: string[], env: Record<string, string>, line: RegExp, code: string): Promise<void> {
  const plain: CliResult = await runCli(args, env);
  expect(plain.code).toBe(1);
  expect(plain.stdout).toBe('');
  const lines = plain.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^leadscan: /);
  expect(lines[0]).toMatch(line);
  const json = await runCli([...args, '--json'], env);
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code });
}

describeEachBackend('leadscan list, rename and delete (spawned CLI)', (backend) => {
  let world: TestWorld;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'https://leads.example.com' };
  });
  afterAll(async () => {
    await world.close();
  }, 120_000);

  it('workspace list / rename, with names unique case-insensitively', async () => {
    const acme = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Acme Roofing'], env);
    await refused(['workspace', 'create', '--name', 'acme roofing'], env, /already exists/, 'name_taken');
    const beta = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Beta'], env);

    const listed = await cliJson<Array<Record<string, unknown>>>(['workspace', 'list'], env);
    expect(listed).toEqual([
      { id: acme.id, name: 'Acme Roofing', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { id: beta.id, name: 'Beta', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
    const human = await runCli(['workspace', 'list'], env);
    expect(human.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+CREATED$/);
    expect(human.stdout).toContain(acme.id);

    expect(await cliJson(['workspace', 'rename', 'ACME ROOFING', '--name', 'Acme Roofing Ltd'], env)).toEqual({
      id: acme.id,
      name: 'Acme Roofing Ltd',
    });
    await refused(['workspace', 'rename', beta.id, '--name', 'acme roofing ltd'], env, /already exists/, 'name_taken');
    await refused(
      ['workspace', 'rename', 'Nope', '--name', 'x'],
      env,
      /No workspace has the id or name "Nope"/,
      'workspace_not_found',
    );
    await refused(['workspace', 'rename', beta.id], env, /--name/, 'invalid_arguments');
  }, 120_000);

  it('pipeline list / rename / delete, and delete asks for --yes and --force', async () => {
    const ws = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Pipes'], env);
    const sales = await cliJson<{ id: string }>(['pipeline', 'create', '--workspace', 'Pipes', '--name', 'Sales'], env);
    const repairs = await cliJson<{ id: string }>(
      ['pipeline', 'create', '--workspace', 'Pipes', '--name', 'Repairs'],
      env,
    );
    await refused(
      ['pipeline', 'create', '--workspace', 'Pipes', '--name', 'SALES'],
      env,
      /already exists in this workspace/,
      'name_taken',
    );
    expect(await cliJson(['pipeline', 'list', '--workspace', ws.id], env)).toEqual([
      { id: sales.id, workspaceId: ws.id, name: 'Sales', createdAt: expect.any(String) },
      { id: repairs.id, workspaceId: ws.id, name: 'Repairs', createdAt: expect.any(String) },
    ]);
    expect(await cliJson(['pipeline', 'rename', 'repairs', '--workspace', 'Pipes', '--name', 'Service'], env)).toEqual({
      id: repairs.id,
      workspaceId: ws.id,
      name: 'Service',
    });

    const source = await cliJson<{ id: string; token: string }>(
      ['source', 'create', '--workspace', 'Pipes', '--pipeline', 'Sales', '--name', 'Site'],
      env,
    );
    const app = await world.app();
    const post = await app.inject({ method: 'POST', url: `/api/intake/${source.token}`, payload: { name: 'Ada' } });
    expect(post.statusCode).toBe(200);

    await refused(
      ['pipeline', 'delete', 'Sales', '--workspace', 'Pipes'],
      env,
      /cannot be undone; add --yes/,
      'invalid_arguments',
    );
    await refused(
      ['pipeline', 'delete', 'Sales', '--workspace', 'Pipes', '--yes'],
      env,
      /Pipeline "Sales" holds 1 lead\(s\); add --force/,
      'not_empty',
    );
    expect(await cliJson(['pipeline', 'delete', 'Sales', '--workspace', 'Pipes', '--yes', '--force'], env)).toEqual({
      id: sales.id,
      name: 'Sales',
      deleted: { pipelines: 1, sources: 1, leads: 1, quarantine: 0, scans: 0 },
    });
    // The deleted source's link is gone at once.
    const after = await app.inject({ method: 'POST', url: `/api/intake/${source.token}`, payload: { name: 'Ada' } });
    expect(after.statusCode).toBe(404);
    expect(await cliJson(['pipeline', 'delete', 'Service', '--workspace', 'Pipes', '--yes'], env)).toMatchObject({
      deleted: { pipelines: 1, leads: 0 },
    });
    expect(await cliJson(['pipeline', 'list', '--workspace', ws.id], env)).toEqual([]);
  }, 120_000);

  it('source commands take the id or the token; rename, deactivate and delete', async () => {
    await cliJson(['workspace', 'create', '--name', 'Src'], env);
    await cliJson(['pipeline', 'create', '--workspace', 'Src', '--name', 'Sales'], env);
    const source = await cliJson<{ id: string; token: string }>(
      ['source', 'create', '--workspace', 'Src', '--pipeline', 'Sales', '--name', 'Site'],
      env,
    );
    expect(await cliJson(['source', 'deactivate', source.id], env)).toEqual({
      id: source.id,
      token: source.token,
      active: false,
    });
    expect(await cliJson(['source', 'activate', source.id], env)).toEqual({
      id: source.id,
      token: source.token,
      active: true,
    });
    expect(await cliJson(['source', 'bot-check', source.id, '--off'], env)).toEqual({
      id: source.id,
      token: source.token,
      botCheck: 'off',
    });
    expect(await cliJson(['source', 'rename', source.token, '--name', 'Landing page'], env)).toEqual({
      id: source.id,
      token: source.token,
      name: 'Landing page',
    });
    await refused(
      ['source', 'deactivate', 'src_00000000000000000000000000000000'],
      env,
      /No lead source has the id/,
      'source_not_found',
    );
    const app = await world.app();
    const post = await app.inject({
      method: 'POST',
      url: `/api/intake/${source.token}`,
      payload: { email: 'a@example.com' },
    });
    expect(post.statusCode).toBe(200);
    await refused(
      ['source', 'delete', source.id, '--yes'],
      env,
      /holds 1 lead\(s\).*deactivate the source to keep them/,
      'not_empty',
    );
    expect(await cliJson(['source', 'delete', source.id, '--yes', '--force'], env)).toEqual({
      id: source.id,
      name: 'Landing page',
      deleted: { pipelines: 0, sources: 1, leads: 1, quarantine: 0, scans: 0 },
    });
  }, 120_000);

  it('workspace delete removes everything with --force, and nothing without', async () => {
    const seeded = await world.seed('Doomed');
    const app = await world.app();
    const lead = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      payload: { name: 'Ada' },
    });
    await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      payload: { name: 'Bot', website: 'x' },
    });
    // What hangs off a workspace since the web app and stages: a member, and a lead with stage history.
    await createUser({ ctx: world.ctx, input: { email: 'crew@doomed.example', workspaceId: seeded.workspaceId } });
    const leadId = (lead.json() as { id: string }).id;
    await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: leadId, stage: 'contacted', by: { userId: null, label: 'cli' } },
    });
    const scan = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': seeded.uploadKey, 'content-type': 'application/json' },
      payload: '{"rooms":[{"name":"Kitchen"}]}',
    });
    expect(scan.statusCode).toBe(200);
    await refused(['workspace', 'delete', 'Doomed', '--yes'], env, /holds 1 lead\(s\) and 1 scan\(s\)/, 'not_empty');
    expect(await cliJson(['workspace', 'delete', 'doomed', '--yes', '--force'], env)).toEqual({
      id: seeded.workspaceId,
      name: 'Doomed',
      deleted: { pipelines: 1, sources: 1, leads: 1, quarantine: 1, scans: 1 },
    });
    const { db } = world.store;
    expect(await db.selectFrom('scan_rooms').selectAll().execute()).toEqual([]);
    expect(
      await db.selectFrom('upload_keys').selectAll().where('workspace_id', '=', seeded.workspaceId).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('memberships').selectAll().where('workspace_id', '=', seeded.workspaceId).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('stages').selectAll().where('pipeline_id', '=', seeded.pipelineId).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('stage_history').selectAll().where('lead_id', '=', leadId).execute()).toEqual([]);
    const rejected = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': seeded.uploadKey, 'content-type': 'application/json' },
      payload: '{"rooms":[]}',
    });
    expect(rejected.statusCode).toBe(401);
  }, 120_000);

  it('links use PUBLIC_BASE_URL, else the base URL the server last started with', async () => {
    await cliJson(['workspace', 'create', '--name', 'Links'], env);
    await cliJson(['pipeline', 'create', '--workspace', 'Links', '--name', 'Sales'], env);
    const noBase = { DATABASE_URL: env.DATABASE_URL!, APP_SECRET: env.APP_SECRET! };
    const before = await cliJson<{ formUrl: string }>(
      ['source', 'create', '--workspace', 'Links', '--pipeline', 'Sales', '--name', 'A'],
      noBase,
    );
    expect(before.formUrl).toMatch(/^http:\/\/localhost:3000\/f\//);
    await recordServerBaseUrl(world.ctx, 'http://localhost:3917');
    const after = await cliJson<{ formUrl: string; intakeUrl: string }>(
      ['source', 'create', '--workspace', 'Links', '--pipeline', 'Sales', '--name', 'B'],
      noBase,
    );
    expect(after.formUrl).toMatch(/^http:\/\/localhost:3917\/f\//);
    expect(after.intakeUrl).toMatch(/^http:\/\/localhost:3917\/api\/intake\//);
    const explicit = await cliJson<{ formUrl: string }>(
      ['source', 'create', '--workspace', 'Links', '--pipeline', 'Sales', '--name', 'C'],
      env,
    );
    expect(explicit.formUrl).toMatch(/^https:\/\/leads\.example\.com\/f\//);
  }, 120_000);
});
