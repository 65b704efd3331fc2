import { afterEach, beforeEach, expect, it } from 'vitest';
import { listAudit } from '../../src/domain/audit/list-audit.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { unreadCounts } from '../../src/domain/leads/unread-counts.js';
import { runRetention } from '../../src/domain/retention/run-retention.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
// 12 months before NOW, as calendar months in UTC.
const CUTOFF = '2025-11-25T12:00:00.000Z';

describeEachBackend('retention: the daily purge of old leads, scans and quarantine', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let home: Seeded;
  let away: Seeded;
  beforeEach(async () => {
    clock = new TestClock(NOW);
    world = await createWorld(backend, { clock });
    home = await world.seed('Home');
    away = await world.seed('Away');
  });
  afterEach(async () => {
    await world.close();
  });

  /** A lead through intake, then dated `receivedAt` (intake stamps the server's time). */
  const lead = async (seeded: Seeded, name: string, receivedAt: string) => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      payload: { name, email: `${name.toLowerCase()}@example.com` },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json<{ id: string }>().id;
    await world.store.db.updateTable('leads').set({ received_at: receivedAt }).where('id', '=', id).execute();
    return id;
  };
  const scan = async (seeded: Seeded, receivedAt: string) => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': seeded.uploadKey },
      payload: '{"rooms":[{"name":"Hall"}]}',
    });
    expect(res.statusCode).toBe(200);
    // The upload answers no id; ids are time-ordered, so the newest is this one.
    const { id } = await world.store.db
      .selectFrom('scans')
      .select('id')
      .where('workspace_id', '=', seeded.workspaceId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await world.store.db.updateTable('scans').set({ received_at: receivedAt }).where('id', '=', id).execute();
    return id;
  };
  const ids = async (table: 'leads' | 'scans' | 'quarantine', workspaceId: string) =>
    (
      await world.store.db
        .selectFrom(table)
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  const searchIds = async (workspaceId: string, search: string) =>
    (await listLeads({ ctx: inWorkspace(world.ctx, workspaceId), input: { search, limit: 100 } })).leads
      .map((l) => l.id)
      .sort();

  it('is off by default: nothing is deleted but quarantine past its 30 days', async () => {
    const old = await lead(home, 'Ancient', '2020-01-01T00:00:00.000Z');
    const run = await runRetention(world.ctx);
    expect(run.ran).toBe(true);
    expect(await ids('leads', home.workspaceId)).toEqual([old]);
  });

  it('deletes exactly what is older than the cut-off, keeps search and unread counts right, and records the counts', async () => {
    const justBefore = await lead(home, 'Before', new Date(Date.parse(CUTOFF) - 1).toISOString());
    const atCutoff = await lead(home, 'Atcut', CUTOFF);
    const recent = await lead(home, 'Recent', new Date(NOW - DAY).toISOString());
    const awayOld = await lead(away, 'Awayold', '2020-01-01T00:00:00.000Z');
    const oldScan = await scan(home, '2026-01-01T00:00:00.000Z');
    const newScan = await scan(home, '2026-11-01T00:00:00.000Z');
    // Leads 12 months, scans 6 months (cut-off 2026-05-25) in home; away keeps everything.
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: home.workspaceId, leadRetention: '12', scanRetention: '6' },
    });
    expect(await searchIds(home.workspaceId, 'example.com')).toEqual([justBefore, atCutoff, recent].sort());
    expect(
      (await unreadCounts({ ctx: inWorkspace(world.ctx, home.workspaceId), input: {} })).reduce(
        (n, p) => n + p.unread,
        0,
      ),
    ).toBe(3);

    const run = await runRetention(world.ctx);
    expect(run.ran).toBe(true);
    expect(run.workspaces.find((w) => w.workspaceId === home.workspaceId)).toMatchObject({ leads: 1, scans: 1 });
    expect(await ids('leads', home.workspaceId)).toEqual([atCutoff, recent].sort());
    expect(await ids('leads', away.workspaceId)).toEqual([awayOld]);
    expect(await ids('scans', home.workspaceId)).toEqual([newScan]);
    expect(oldScan).not.toBe(newScan);
    expect(await searchIds(home.workspaceId, 'example.com')).toEqual([atCutoff, recent].sort());
    expect(await searchIds(home.workspaceId, 'before')).toEqual([]);
    expect(
      (await unreadCounts({ ctx: inWorkspace(world.ctx, home.workspaceId), input: {} })).reduce(
        (n, p) => n + p.unread,
        0,
      ),
    ).toBe(2);
    const scanUnread = await world.store.db
      .selectFrom('scan_unread')
      .select('scan_id')
      .where('workspace_id', '=', home.workspaceId)
      .execute();
    expect(scanUnread.map((r) => r.scan_id)).toEqual([newScan]);

    const records = (
      await listAudit({ ctx: world.ctx, input: { workspaceId: home.workspaceId, action: 'retention.ran' } })
    ).records;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: { kind: 'system', label: 'system' },
      details: { leads: 1, scans: 1, quarantine: 0, leadMonths: 12, scanMonths: 6 },
    });
    // Away has retention off and nothing past quarantine's rule: no record.
    expect(
      (await listAudit({ ctx: world.ctx, input: { workspaceId: away.workspaceId, action: 'retention.ran' } })).records,
    ).toHaveLength(0);

    // Once a day: a second run the same day does nothing; the next day it runs again, with the cut-off moved on.
    expect((await runRetention(world.ctx)).ran).toBe(false);
    clock.advance(DAY);
    const next = await runRetention(world.ctx);
    expect(next.ran).toBe(true);
    expect(await ids('leads', home.workspaceId)).toEqual([recent]);
  });

  it('deletes in batches of 500 (1,001 old leads: three transactions) and prunes audit records older than 365 days', async () => {
    const app = await world.app();
    for (let i = 0; i < 1001; i++) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${home.source.token}`,
        payload: { name: `Old ${i}` },
      });
      expect(res.statusCode).toBe(200);
    }
    await world.store.db
      .updateTable('leads')
      .set({ received_at: '2024-01-01T00:00:00.000Z' })
      .where('workspace_id', '=', home.workspaceId)
      .execute();
    await updateWorkspaceSettings({ ctx: world.ctx, input: { workspaceId: home.workspaceId, leadRetention: '3' } });
    await world.store.db.updateTable('audit_log').set({ at: '2025-11-24T00:00:00.000Z' }).execute();
    const commitsBefore = world.store.writer.stats.commits;
    const run = await runRetention(world.ctx);
    expect(run.workspaces.find((w) => w.workspaceId === home.workspaceId)?.leads).toBe(1001);
    expect(await ids('leads', home.workspaceId)).toEqual([]);
    expect(world.store.writer.stats.commits - commitsBefore).toBeGreaterThanOrEqual(3);
    expect(run.auditPruned).toBeGreaterThan(0);
    const left = await world.store.db.selectFrom('audit_log').select('action').execute();
    expect(left.map((r) => r.action)).toEqual(['retention.ran']);
  }, 120_000);

  it('deletes quarantine entries past their 30 days in every workspace', async () => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${home.source.token}`,
      payload: { name: 'Caught', website: 'autofill' },
    });
    expect(res.statusCode).toBe(200);
    await world.store.db
      .updateTable('quarantine')
      .set({ received_at: new Date(NOW - 31 * DAY).toISOString() })
      .execute();
    const run = await runRetention(world.ctx);
    expect(run.workspaces.find((w) => w.workspaceId === home.workspaceId)?.quarantine).toBe(1);
    expect(await ids('quarantine', home.workspaceId)).toEqual([]);
  });

  it('two instances on one database run one purge', async () => {
    await lead(home, 'Old', '2020-01-01T00:00:00.000Z');
    await updateWorkspaceSettings({ ctx: world.ctx, input: { workspaceId: home.workspaceId, leadRetention: '3' } });
    const other = openDatabase(world.config.database);
    try {
      const otherCtx = createDomainContext({ config: world.config, store: other, appSecret: world.appSecret, clock });
      const runs = await Promise.all([runRetention(world.ctx), runRetention(otherCtx)]);
      expect(runs.map((r) => r.ran).sort()).toEqual([false, true]);
      const records = await world.store.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'retention.ran')
        .execute();
      expect(records).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
