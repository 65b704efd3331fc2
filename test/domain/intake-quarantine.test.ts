import { afterEach, beforeEach, expect, it } from 'vitest';
import { inWorkspace, type Clock } from '../../src/domain/context.js';
import { newId } from '../../src/domain/ids.js';
import { submitLead, type IntakeMeta } from '../../src/domain/intake/submit-lead.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { listQuarantine } from '../../src/domain/quarantine/list-quarantine.js';
import { QUARANTINE_RETENTION } from '../../src/domain/intake/quarantine-retention.js';
import { restoreQuarantined } from '../../src/domain/quarantine/restore-quarantined.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

const DAY = 24 * 60 * 60 * 1000;
const meta: IntakeMeta = {
  clientIp: '203.0.113.7',
  userAgent: 'ua/1',
  origin: 'https://o.example',
  referer: 'https://o.example/f',
};

describeEachBackend('intake verbs: quarantine, retention and restore', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let source: LeadSource;
  let now: Date;
  const clock: Clock = { now: () => now };

  beforeEach(async () => {
    now = new Date('2026-03-01T10:00:00.000Z');
    world = await createWorld(backend, { clock });
    seeded = await world.seed();
    source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
  });
  afterEach(async () => {
    await world.close();
  });

  const catchOne = (name = 'Bot') =>
    submitLead({ ctx: world.ctx, input: { source, body: { name, website: 'x' }, meta } });
  const quarantineRows = () =>
    world.store.db
      .selectFrom('quarantine')
      .selectAll()
      .where('source_id', '=', source.id)
      .orderBy('received_at')
      .execute();

  it('openIntake: malformed, unknown and deactivated tokens', async () => {
    expect(() => parseIntakeToken('abc')).toThrow(expect.objectContaining({ code: 'malformed_token' }));
    await expect(
      openIntake({ ctx: world.ctx, input: { token: parseIntakeToken('00000000-0000-4000-8000-000000000000') } }),
    ).rejects.toMatchObject({ code: 'intake_unavailable' });
    await world.store.db.updateTable('lead_sources').set({ active: 0 }).where('id', '=', source.id).execute();
    await expect(
      openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } }),
    ).rejects.toMatchObject({
      code: 'intake_unavailable',
    });
  });

  it('a source deactivated after it was opened refuses the very next post, lead or catch, and stores nothing', async () => {
    // `source` was opened (and would be cached by the intake route) while active; the insert re-checks in SQL.
    await submitLead({ ctx: world.ctx, input: { source, body: { name: 'Before' }, meta } });
    await world.store.writer.write((trx) =>
      trx.updateTable('lead_sources').set({ active: 0 }).where('id', '=', source.id).execute(),
    );
    await expect(
      submitLead({ ctx: world.ctx, input: { source, body: { name: 'After' }, meta } }),
    ).rejects.toMatchObject({
      code: 'intake_unavailable',
    });
    await expect(catchOne('After')).rejects.toMatchObject({ code: 'intake_unavailable' });
    const leads = await world.store.db.selectFrom('leads').select('name').where('source_id', '=', source.id).execute();
    expect(leads.map((l) => l.name)).toEqual(['Before']);
    expect(await quarantineRows()).toEqual([]);
  });

  it('a source moved to another pipeline after it was opened refuses the post (no lead in the old pipeline)', async () => {
    const other = newId('pl');
    await world.store.writer.write(async (trx) => {
      await trx
        .insertInto('pipelines')
        .values({ id: other, workspace_id: seeded.workspaceId, name: 'Other', created_at: now.toISOString() })
        .execute();
      await trx.updateTable('lead_sources').set({ pipeline_id: other }).where('id', '=', source.id).execute();
    });
    await expect(
      submitLead({ ctx: world.ctx, input: { source, body: { name: 'Stale' }, meta } }),
    ).rejects.toMatchObject({
      code: 'intake_unavailable',
    });
    expect(await world.store.db.selectFrom('leads').select('id').execute()).toEqual([]);
  });

  it('drops quarantine rows older than 30 days when a new one arrives', async () => {
    await catchOne('old');
    now = new Date(now.getTime() + 29 * DAY);
    await catchOne('recent');
    expect((await quarantineRows()).map((r) => JSON.parse(r.fields).name)).toEqual(['old', 'recent']);
    now = new Date(now.getTime() + 2 * DAY); // "old" is now 31 days old
    await catchOne('new');
    expect((await quarantineRows()).map((r) => JSON.parse(r.fields).name)).toEqual(['recent', 'new']);
  });

  it('hides and refuses to restore catches past 30 days even before a new catch prunes them', async () => {
    await catchOne('stale');
    const [row] = await quarantineRows();
    const list = () => listQuarantine({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    now = new Date(now.getTime() + 29 * DAY);
    expect((await list()).map((q) => q.fields.name)).toEqual(['stale']);
    now = new Date(now.getTime() + 2 * DAY);
    expect(await list()).toEqual([]);
    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: row!.id } }),
    ).rejects.toMatchObject({
      code: 'quarantine_item_not_found',
    });
    expect(await world.store.db.selectFrom('leads').selectAll().execute()).toEqual([]);
  });

  it('keeps at most 10,000 rows per source, dropping the oldest first, and leaves other sources alone', async () => {
    const limit = QUARANTINE_RETENTION.perSource;
    expect(limit).toBe(10_000);
    const other = await world.seed('Other');
    // Fill the source to the limit with a bulk insert (10,000 real requests would be slow); the pruning under
    // test is the one the next real catch runs.
    const start = now.getTime() - 10 * DAY;
    const rows = Array.from({ length: limit }, (_, i) => ({
      id: newId('qr'),
      workspace_id: source.workspaceId,
      source_id: source.id,
      reason: 'honeypot',
      fields: JSON.stringify({ name: `n${i}`, website: 'x' }),
      received_at: new Date(start + i * 1000).toISOString(),
      client_ip: null,
      user_agent: null,
      origin: null,
      referer: null,
      restored_lead_id: null,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await world.store.db
        .insertInto('quarantine')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    await world.store.db
      .insertInto('quarantine')
      .values({ ...rows[0]!, id: newId('qr'), workspace_id: other.workspaceId, source_id: other.source.id })
      .execute();

    await catchOne('newest');
    const count = await world.store.db
      .selectFrom('quarantine')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('source_id', '=', source.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(limit);
    const ids = new Set((await quarantineRows()).map((r) => r.id));
    expect(ids.has(rows[0]!.id)).toBe(false); // the oldest went
    expect(ids.has(rows[1]!.id)).toBe(true);
    const otherRows = await world.store.db
      .selectFrom('quarantine')
      .select('id')
      .where('source_id', '=', other.source.id)
      .execute();
    expect(otherRows).toHaveLength(1);
  });

  it('restore makes the lead with the original received time and details, once', async () => {
    const receivedAt = now.toISOString();
    await submitLead({
      ctx: world.ctx,
      input: {
        source,
        body: { name: '  Real Person ', email: 'r@example.com', website: 'autofill', message: 'hi', x: 1 },
        meta,
      },
    });
    const [row] = await quarantineRows();
    now = new Date(now.getTime() + 3 * DAY);

    const { leadId } = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: row!.id },
    });
    const lead = await world.store.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow();
    expect(lead).toMatchObject({
      source_id: source.id,
      pipeline_id: seeded.pipelineId,
      stage: 'inbox',
      name: 'Real Person',
      email: 'r@example.com',
      notes: 'hi',
      extra: '{"x":"1"}',
      received_at: receivedAt,
      client_ip: meta.clientIp,
      user_agent: meta.userAgent,
      origin: meta.origin,
      referer: meta.referer,
      restored_from: row!.id,
    });
    const marked = await world.store.db
      .selectFrom('quarantine')
      .selectAll()
      .where('id', '=', row!.id)
      .executeTakeFirstOrThrow();
    expect(marked.restored_lead_id).toBe(leadId);

    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: row!.id } }),
    ).rejects.toMatchObject({
      code: 'already_restored',
    });
    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: 'qr_nope' } }),
    ).rejects.toMatchObject({
      code: 'quarantine_item_not_found',
    });
    const leads = await world.store.db.selectFrom('leads').select('id').where('source_id', '=', source.id).execute();
    expect(leads).toHaveLength(1);
  });

  it('restore re-runs the field rules: a catch without contact details cannot become a lead', async () => {
    await submitLead({ ctx: world.ctx, input: { source, body: { notes: 'only notes', website: 'x' }, meta } });
    const [row] = await quarantineRows();
    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: row!.id } }),
    ).rejects.toMatchObject({
      code: 'missing_contact',
    });
    const after = await world.store.db
      .selectFrom('quarantine')
      .selectAll()
      .where('id', '=', row!.id)
      .executeTakeFirstOrThrow();
    expect(after.restored_lead_id).toBeNull();
    expect(await world.store.db.selectFrom('leads').select('id').execute()).toHaveLength(0);
  });
});
