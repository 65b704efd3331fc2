import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';

interface Created {
  userId: string;
  email: string;
  workspaceId: string;
  role: string;
  setupUrl: string | null;
  expiresAt: string | null;
}

describeEachBackend('leadscan user … and source list (spawned)', (backend) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let workspace: { id: string };
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    env = {
      DATABASE_URL: db.url,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: 'https://leads.example.com',
    };
    // Only `migrate` (and `serve`) may create the database; every other command needs it to exist.
    await cliJson(['migrate'], env);
    workspace = await cliJson(['workspace', 'create', '--name', 'Acme'], env);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('user create prints a one-time link; reset-password replaces it; list and remove', async () => {
    const owner = await cliJson<Created>(
      ['user', 'create', '--email', 'Olga@Example.com', '--workspace', 'Acme', '--role', 'owner'],
      env,
    );
    expect(owner).toEqual({
      userId: expect.stringMatching(/^usr_[0-9a-f]{32}$/),
      email: 'Olga@Example.com',
      workspaceId: workspace.id,
      role: 'owner',
      outcome: 'added',
      emailed: false,
      setupUrl: expect.stringMatching(/^https:\/\/leads\.example\.com\/setup\/[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    const member = await runCli(['user', 'create', '--email', 'max@example.com', '--workspace', workspace.id], env);
    expect(member.code).toBe(0);
    expect(member.stdout).toMatch(/One-time link for max@example\.com .*\n {2}https:\/\/leads\.example\.com\/setup\//);

    // An account that exists is invited, never handed a new link, even by the operator.
    await cliJson(['workspace', 'create', '--name', 'Beta'], env);
    const again = await runCli(['user', 'create', '--email', 'max@example.com', '--workspace', 'Beta'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      'max@example.com already has an account: an invitation waits for them to accept after signing in (Account page).\n',
    );

    const reset = await cliJson<{ setupUrl: string }>(['user', 'reset-password', '--email', 'olga@example.com'], env);
    expect(reset.setupUrl).not.toBe(owner.setupUrl);

    const list = await cliJson<Array<{ email: string; passwordSet: boolean; memberships: unknown[] }>>(
      ['user', 'list', '--workspace', 'Acme'],
      env,
    );
    expect(list.map((u) => [u.email, u.passwordSet, u.memberships])).toEqual([
      ['max@example.com', false, [{ workspaceId: workspace.id, workspaceName: 'Acme', role: 'member' }]],
      ['Olga@Example.com', false, [{ workspaceId: workspace.id, workspaceName: 'Acme', role: 'owner' }]],
    ]);

    const lastOwner = await runCli(['user', 'remove', '--email', 'olga@example.com', '--json'], env);
    expect(lastOwner.code).toBe(1);
    expect(JSON.parse(lastOwner.stdout)).toMatchObject({ ok: false, code: 'last_owner' });
    expect(await cliJson(['user', 'remove', '--email', 'max@example.com', '--workspace', 'Acme'], env)).toMatchObject({
      email: 'max@example.com',
      removedFrom: [workspace.id],
    });
    const unknown = await runCli(['user', 'reset-password', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('leadscan: No user has the email nobody@example.com\n');
  });

  it('source list shows tokens, URLs and lead counts', async () => {
    await cliJson(['pipeline', 'create', '--workspace', 'Acme', '--name', 'Sales'], env);
    const source = await cliJson<{ id: string; token: string }>(
      ['source', 'create', '--workspace', 'Acme', '--pipeline', 'Sales', '--name', 'Site'],
      env,
    );
    const list = await cliJson<unknown[]>(['source', 'list', '--workspace', 'Acme'], env);
    expect(list).toEqual([
      expect.objectContaining({
        id: source.id,
        token: source.token,
        name: 'Site',
        pipelineName: 'Sales',
        intakeUrl: `https://leads.example.com/api/intake/${source.token}`,
        formUrl: `https://leads.example.com/f/${source.token}`,
        active: true,
        botCheck: null,
        leadCount: 0,
        lastLeadAt: null,
      }),
    ]);
  });

  it('with email set up, user create emails the invitation and prints no link', async () => {
    await cliJson(['workspace', 'create', '--name', 'Mailed'], env);
    const mailEnv = { ...env, SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'leads@example.com' };
    const res = await runCli(
      ['user', 'create', '--email', 'emma@example.com', '--workspace', 'Mailed', '--name', 'Emma Mail'],
      mailEnv,
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^We emailed an invitation to emma@example\.com/);
    expect(res.stdout).not.toMatch(/\/setup\//);
    const listed = await runCli(['user', 'list', '--workspace', 'Mailed'], env);
    expect(listed.stdout).toContain('emma@example.com');
  });
});
