import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';

describe('leadscan CLI (spawned, SQLite file)', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    const dir = tempDir();
    env = {
      DATABASE_URL: path.join(dir, 'cli.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: 'https://leads.example.com',
    };
  });

  let workspace: { id: string; name: string; uploadKey: string };
  let pipeline: { id: string; workspaceId: string; name: string };
  let source: { id: string; token: string; intakeUrl: string; formUrl: string; active: boolean };

  afterAll(() => undefined);

  it('prints help right away', async () => {
    const result = await runCli(['--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: leadscan');
    for (const command of [
      'serve',
      'migrate',
      'workspace',
      'pipeline',
      'source',
      'key',
      'leads',
      'quarantine',
      'scans',
    ]) {
      expect(result.stdout).toContain(command);
    }
  });

  it('migrate --json', async () => {
    expect(await cliJson(['migrate'], env)).toEqual({ ok: true });
  });

  it('workspace, pipeline and source create --json', async () => {
    workspace = await cliJson(['workspace', 'create', '--name', 'Acme Builders'], env);
    expect(Object.keys(workspace).sort()).toEqual(['id', 'name', 'uploadKey']);
    expect(workspace.name).toBe('Acme Builders');
    expect(workspace.uploadKey).toMatch(/^lsk_[A-Za-z0-9_-]{43}$/);

    pipeline = await cliJson(['pipeline', 'create', '--workspace', 'Acme Builders', '--name', 'Sales'], env);
    expect(pipeline).toEqual({ id: expect.stringMatching(/^pl_/), workspaceId: workspace.id, name: 'Sales' });

    source = await cliJson(
      ['source', 'create', '--workspace', workspace.id, '--pipeline', 'Sales', '--name', 'Site'],
      env,
    );
    expect(Object.keys(source).sort()).toEqual(['active', 'formUrl', 'id', 'intakeUrl', 'token']);
    expect(source.intakeUrl).toBe(`https://leads.example.com/api/intake/${source.token}`);
    expect(source.formUrl).toBe(`https://leads.example.com/f/${source.token}`);
    expect(source.active).toBe(true);
  });

  it('source deactivate / activate / bot-check --json', async () => {
    expect(await cliJson(['source', 'deactivate', source.token], env)).toEqual({
      id: source.id,
      token: source.token,
      active: false,
    });
    expect(await cliJson(['source', 'activate', source.token], env)).toEqual({
      id: source.id,
      token: source.token,
      active: true,
    });
    expect(
      await cliJson(
        [
          'source',
          'bot-check',
          source.token,
          '--provider',
          'recaptcha',
          '--secret',
          's3cret',
          '--site-key',
          'k',
          '--min-score',
          '0.5',
        ],
        env,
      ),
    ).toEqual({ id: source.id, token: source.token, botCheck: { provider: 'recaptcha', siteKey: 'k', minScore: 0.5 } });
    expect(await cliJson(['source', 'bot-check', source.token, '--off'], env)).toEqual({
      id: source.id,
      token: source.token,
      botCheck: 'off',
    });
  });

  it('source bot-check without --site-key: a one-line note on stderr, stdout stays one JSON document', async () => {
    const note =
      'note: without --site-key the hosted form cannot show the widget; posts from your own form with botCheckToken still work\n';
    const json = await runCli(
      ['source', 'bot-check', source.token, '--provider', 'turnstile', '--secret', 's3cret', '--json'],
      env,
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      id: source.id,
      token: source.token,
      botCheck: { provider: 'turnstile', siteKey: null, minScore: null },
    });
    expect(json.stdout).not.toContain('note:');
    expect(json.stderr).toBe(note);

    const plain = await runCli(
      ['source', 'bot-check', source.token, '--provider', 'recaptcha', '--secret', 's3cret', '--min-score', '0.5'],
      env,
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('provider');
    expect(plain.stdout).not.toContain('note:');
    expect(plain.stderr).toBe(note);

    // With a site key, or turning the check off, there is nothing to note.
    const withKey = await runCli(
      [
        'source',
        'bot-check',
        source.token,
        '--provider',
        'turnstile',
        '--secret',
        's3cret',
        '--site-key',
        'k',
        '--json',
      ],
      env,
    );
    expect(withKey.code).toBe(0);
    expect(withKey.stderr).toBe('');
    const off = await runCli(['source', 'bot-check', source.token, '--off', '--json'], env);
    expect(off.code).toBe(0);
    expect(off.stderr).toBe('');
    expect(JSON.parse(off.stdout)).toEqual({ id: source.id, token: source.token, botCheck: 'off' });
  });

  it('key show and regenerate --json', async () => {
    expect(await cliJson(['key', 'show', '--workspace', workspace.id], env)).toEqual({
      uploadKey: workspace.uploadKey,
    });
    const regenerated = await cliJson<{ uploadKey: string }>(['key', 'regenerate', '--workspace', workspace.id], env);
    expect(regenerated.uploadKey).not.toBe(workspace.uploadKey);
    expect(await cliJson(['key', 'show', '--workspace', 'Acme Builders'], env)).toEqual(regenerated);
  });

  it('empty inboxes list as []', async () => {
    expect(await cliJson(['leads', 'list', '--workspace', workspace.id], env)).toEqual([]);
    expect(await cliJson(['leads', 'list', '--workspace', workspace.id, '--pipeline', 'Sales'], env)).toEqual([]);
    expect(await cliJson(['quarantine', 'list', '--workspace', workspace.id], env)).toEqual([]);
    expect(await cliJson(['scans', 'list', '--workspace', workspace.id], env)).toEqual([]);
  });

  it.each([
    [['workspace', 'create'], /--name/],
    [['key', 'show', '--workspace', 'ws_nope'], /No workspace/],
    [['pipeline', 'create', '--workspace', 'Nope', '--name', 'x'], /No workspace/],
    [['source', 'deactivate', 'not-a-token'], /neither a lead source id \(src_…\) nor an intake token/],
    [['source', 'activate', '00000000-0000-4000-8000-000000000000'], /No lead source/],
    [
      ['source', 'bot-check', '00000000-0000-4000-8000-000000000000', '--provider', 'nope', '--secret', 's'],
      /Allowed choices/,
    ],
    [['scans', 'raw', 'scan_missing'], /No scan/],
    [['scans', 'room', 'scan_missing', 'x'], /whole number/],
    [['quarantine', 'restore', 'qr_missing'], /quarantined submission/],
    [['frobnicate'], /unknown command/],
  ])('leadscan %j fails with exit 1 and one clear line', async (args, message) => {
    const plain = await runCli(args, env);
    expect(plain.code).toBe(1);
    const lines = plain.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^leadscan: /);
    expect(lines[0]).toMatch(message);
    expect(plain.stdout).toBe('');

    const json = await runCli([...args, '--json'], env);
    expect(json.code).toBe(1);
    const problem = JSON.parse(json.stdout) as { ok: boolean; code: string; detail: string };
    expect(problem.ok).toBe(false);
    expect(problem.code).toMatch(/^[a-z_]+$/);
    expect(problem.detail).toMatch(message);
  });

  it('stops on bad configuration with one line naming the variable', async () => {
    const result = await runCli(['migrate'], { ...env, DATABASE_URL: 'mysql://localhost/x' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('DATABASE_URL');
  });
});
