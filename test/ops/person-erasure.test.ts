import { afterAll, beforeAll, expect, it } from 'vitest';
import { restoreQuarantined } from '../../src/domain/quarantine/restore-quarantined.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { everyRow } from '../helpers/every-row.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

interface Exported {
  leads: Array<{ id: string; email: string | null; phone: string | null; clientIp: string | null }>;
  quarantine: Array<{ id: string; fields: Record<string, string> }>;
  idempotencyRecords: Array<{ scope: string; key: string }>;
}
interface Erased {
  deleted: {
    leads: string[];
    quarantine: string[];
    idempotencyRecords: Array<{ scope: string; key: string }>;
    invoices: string[];
  };
}

describeEachBackend('person export and erase (spawned CLI)', (backend) => {
  let world: TestWorld;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
  });
  afterAll(async () => {
    await world.close();
  });

  it('export lists exactly what erase removes; afterwards no row in any table holds the email', async () => {
    const acme = await world.seed('Acme');
    const other = await world.seed('Other');
    const app = await world.app();
    const post = async (token: string, payload: Record<string, string>, key?: string) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${token}`,
        payload,
        headers: key ? { 'idempotency-key': key } : {},
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }>().id;
    };
    const email = 'Ada.Lovelace@Example.com';
    const first = await post(acme.source.token, { name: 'Ada', email, phone: '+44 20 7946 0018' }, 'key-ada-1');
    const second = await post(acme.source.token, { name: 'Ada L', email: email.toLowerCase(), notes: 'again' });
    await post(
      acme.source.token,
      { name: 'Ada bot', email: ` ${email.toUpperCase()} `, website: 'autofilled' },
      'key-ada-2',
    );
    const bystander = await post(acme.source.token, { name: 'Grace', email: 'grace@example.com' });
    const elsewhere = await post(other.source.token, { name: 'Ada', email }); // another workspace: not touched

    const caught = await world.store.db
      .selectFrom('quarantine')
      .select('id')
      .where('workspace_id', '=', acme.workspaceId)
      .execute();
    expect(caught).toHaveLength(1);
    const restored = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, acme.workspaceId),
      input: { id: caught[0]!.id },
    });

    const exported = await cliJson<Exported>(
      ['person', 'export', '--workspace', 'Acme', '--email', 'ADA.lovelace@example.com'],
      env,
    );
    expect(exported.leads.map((l) => l.id).sort()).toEqual([first, second, restored.leadId].sort());
    expect(exported.leads.find((l) => l.id === first)).toMatchObject({
      phone: '+44 20 7946 0018',
      clientIp: expect.any(String),
    });
    expect(exported.quarantine.map((q) => q.id)).toEqual([caught[0]!.id]);
    expect(exported.idempotencyRecords.map((r) => r.key).sort()).toEqual(['key-ada-1', 'key-ada-2']);

    const byPhone = await cliJson<Exported>(
      ['person', 'export', '--workspace', acme.workspaceId, '--phone', '00442079460018'],
      env,
    );
    expect(byPhone.leads.map((l) => l.id)).toEqual([]);
    const byPhoneDigits = await cliJson<Exported>(
      ['person', 'export', '--workspace', 'Acme', '--phone', '(44) 20-7946-0018'],
      env,
    );
    expect(byPhoneDigits.leads.map((l) => l.id)).toEqual([first]);

    const noYes = await runCli(['person', 'erase', '--workspace', 'Acme', '--email', email], env);
    expect(noYes.code).toBe(1);
    expect(noYes.stderr.trim().split('\n')).toHaveLength(1);
    expect(noYes.stderr).toMatch(/add --yes/);

    const erased = await cliJson<Erased>(['person', 'erase', '--workspace', 'Acme', '--email', email, '--yes'], env);
    expect([...erased.deleted.leads].sort()).toEqual(exported.leads.map((l) => l.id).sort());
    expect(erased.deleted.quarantine).toEqual(exported.quarantine.map((q) => q.id));
    expect(erased.deleted.idempotencyRecords).toEqual(
      exported.idempotencyRecords.map(({ scope, key }) => ({ scope, key })),
    );

    const holding = (await everyRow(world.store)).filter((row) =>
      row.text.toLowerCase().includes('ada.lovelace@example.com'),
    );
    // Only the other workspace's lead is left, with its search document on PostgreSQL (migration 0025; on SQLite the
    // search index is a file of its own).
    expect(holding.map((row) => row.table).sort()).toEqual(
      backend === 'postgres' ? ['lead_search_pending', 'leads'] : ['leads'],
    );
    for (const row of holding) expect(row.text).toContain(elsewhere);
    const left = await world.store.db
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', acme.workspaceId)
      .execute();
    expect(left.map((l) => l.id)).toEqual([bystander]);

    // A second erase finds nothing; a replay of the erased key is a new request now.
    expect(
      (await cliJson<Erased>(['person', 'erase', '--workspace', 'Acme', '--email', email, '--yes'], env)).deleted,
    ).toEqual({
      leads: [],
      quarantine: [],
      idempotencyRecords: [],
      invoices: [],
    });
  }, 120_000);

  it('refuses bad arguments with one line', async () => {
    for (const args of [
      ['person', 'export', '--workspace', 'Acme'],
      ['person', 'export', '--workspace', 'Acme', '--email', 'a@b.c', '--phone', '123456'],
      ['person', 'export', '--email', 'a@b.c'],
    ]) {
      const result = await runCli(args, env);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
  }, 60_000);
});
