import { leadCtx } from '../helpers/contexts.js';
import { Migrator } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { submitLead } from '../../src/domain/intake/submit-lead.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { restoreQuarantined } from '../../src/domain/quarantine/restore-quarantined.js';
import { addStage } from '../../src/domain/stages/add-stage.js';
import { listStages } from '../../src/domain/stages/list-stages.js';
import { removeStage } from '../../src/domain/stages/remove-stage.js';
import { renameStage } from '../../src/domain/stages/rename-stage.js';
import { reorderStages } from '../../src/domain/stages/reorder-stages.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { createTestDatabase, describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads } from './leads-fixtures.js';
import { inWorkspace, type WorkspaceContext } from '../../src/domain/context.js';

const meta = { clientIp: null, userAgent: null, origin: null, referer: null };

describeEachBackend('pipeline stages', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let p: { pipelineId: string };
  let ws: WorkspaceContext;

  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    p = { pipelineId: seeded.pipelineId };
    ws = inWorkspace(world.ctx, seeded.workspaceId);
  });
  afterEach(async () => {
    await world.close();
  });

  const names = async () => (await listStages({ ctx: ws, input: p })).map((s) => s.name);
  const submit = async (name: string) => {
    const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    return submitLead({ ctx: world.ctx, input: { source, body: { name }, meta } });
  };

  it('a new pipeline has Inbox, Contacted, Quoted, Won, Lost; new and restored leads land in the first stage', async () => {
    expect(await names()).toEqual(['Inbox', 'Contacted', 'Quoted', 'Won', 'Lost']);
    const a = await submit('Ada');
    await reorderStages({ ctx: ws, input: { ...p, order: ['contacted', 'Inbox', 'quoted', 'won', 'lost'] } });
    expect(await names()).toEqual(['Contacted', 'Inbox', 'Quoted', 'Won', 'Lost']);
    const b = await submit('Bea');
    const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    await submitLead({ ctx: world.ctx, input: { source, body: { name: 'Cy', website: 'autofill' }, meta } });
    const [q] = await world.store.db.selectFrom('quarantine').select('id').execute();
    await reorderStages({ ctx: ws, input: { ...p, stage: 'quoted', direction: 'up' } });
    await reorderStages({ ctx: ws, input: { ...p, stage: 'quoted', direction: 'up' } });
    expect(await names()).toEqual(['Quoted', 'Contacted', 'Inbox', 'Won', 'Lost']);
    const { leadId } = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: q!.id },
    });

    const stageOf = async (id: string) =>
      (await openLead({ ctx: await leadCtx(world.ctx, id), input: { id, markOpened: false } })).stage;
    expect(await stageOf(a.leadId)).toBe('inbox');
    expect(await stageOf(b.leadId)).toBe('contacted');
    expect(await stageOf(leadId)).toBe('quoted');
  });

  it('add, rename, reorder and remove; a stage holding leads goes only by moving them, with history', async () => {
    const added = await addStage({ ctx: ws, input: { ...p, name: 'Site visit' } });
    expect(added).toEqual({ key: 'site-visit', name: 'Site visit', position: 5 });
    await expect(addStage({ ctx: ws, input: { ...p, name: 'site VISIT' } })).rejects.toMatchObject({
      code: 'stage_name_taken',
    });
    await expect(addStage({ ctx: ws, input: { ...p, name: '  ' } })).rejects.toMatchObject({
      code: 'invalid_request',
    });

    await renameStage({ ctx: ws, input: { ...p, stage: 'quoted', name: 'Estimate sent' } });
    await expect(renameStage({ ctx: ws, input: { ...p, stage: 'won', name: 'inbox' } })).rejects.toMatchObject({
      code: 'stage_name_taken',
    });
    expect(await names()).toEqual(['Inbox', 'Contacted', 'Estimate sent', 'Won', 'Lost', 'Site visit']);

    const leads = await insertLeads(
      world,
      { workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id },
      [
        { name: 'A', stage: 'quoted' },
        { name: 'B', stage: 'quoted' },
        { name: 'C', stage: 'won' },
      ],
    );
    await expect(
      removeStage({ ctx: ws, input: { ...p, stage: 'Estimate sent', by: CLI_ACTOR } }),
    ).rejects.toMatchObject({
      code: 'stage_not_empty',
    });
    const removed = await removeStage({
      ctx: ws,
      input: { ...p, stage: 'Estimate sent', moveTo: 'Site visit', by: { userId: 'usr_9', label: 'Ann' } },
    });
    expect(removed.moved).toBe(2);
    expect(await listStages({ ctx: ws, input: p })).toEqual([
      { key: 'inbox', name: 'Inbox', position: 0, leads: 0 },
      { key: 'contacted', name: 'Contacted', position: 1, leads: 0 },
      { key: 'won', name: 'Won', position: 2, leads: 1 },
      { key: 'lost', name: 'Lost', position: 3, leads: 0 },
      { key: 'site-visit', name: 'Site visit', position: 4, leads: 2 },
    ]);
    const a = await openLead({ ctx: await leadCtx(world.ctx, leads[0]!.id), input: { id: leads[0]!.id } });
    expect(a.history).toEqual([
      expect.objectContaining({
        fromStage: 'quoted',
        fromName: 'Estimate sent',
        toStage: 'site-visit',
        toName: 'Site visit',
        byUserId: 'usr_9',
        byLabel: 'Ann',
      }),
    ]);
    // An empty stage goes without a target; the last stage never goes.
    await removeStage({ ctx: ws, input: { ...p, stage: 'lost', by: CLI_ACTOR } });
    await removeStage({ ctx: ws, input: { ...p, stage: 'inbox', by: CLI_ACTOR } });
    await removeStage({ ctx: ws, input: { ...p, stage: 'contacted', by: CLI_ACTOR } });
    await removeStage({ ctx: ws, input: { ...p, stage: 'won', moveTo: 'site-visit', by: CLI_ACTOR } });
    await expect(removeStage({ ctx: ws, input: { ...p, stage: 'site-visit', by: CLI_ACTOR } })).rejects.toMatchObject({
      code: 'last_stage',
    });
    const all = await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(all.leads.map((l) => l.stageName)).toEqual(['Site visit', 'Site visit', 'Site visit']);
    await expect(
      reorderStages({ ctx: ws, input: { ...p, order: ['site-visit', 'site-visit'] } }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('two renames to one name at once, from two instances: one is made, the other is refused as taken', async () => {
    // A second runtime on the same database, as a second server or the CLI beside one: its writes race this one's.
    const other = openDatabase(world.config.database);
    const otherCtx = createDomainContext({ config: world.config, store: other, appSecret: world.appSecret });
    try {
      for (const [round, name] of ['Booked', 'Scheduled', 'On hold', 'Invoiced', 'Paid'].entries()) {
        const [first, second] = round % 2 === 0 ? ['won', 'lost'] : ['lost', 'won'];
        const outcomes = await Promise.allSettled([
          renameStage({ ctx: ws, input: { ...p, stage: first, name } }),
          renameStage({
            ctx: inWorkspace(otherCtx, seeded.workspaceId),
            input: { ...p, stage: second, name: name.toUpperCase() },
          }),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'stage_name_taken' } });
        expect((await names()).filter((n) => n.toLowerCase() === name.toLowerCase())).toHaveLength(1);
      }
    } finally {
      await other.close();
    }
  });

  it('a double-clicked restore makes exactly one lead', async () => {
    const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    await submitLead({ ctx: world.ctx, input: { source, body: { name: 'Jo', website: 'autofill' }, meta } });
    const [q] = await world.store.db.selectFrom('quarantine').select('id').execute();
    const outcomes = await Promise.allSettled([
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: q!.id } }),
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: q!.id } }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'already_restored' } });
    expect(await world.store.db.selectFrom('leads').select('id').execute()).toHaveLength(1);
    const other = await world.seed('Other');
    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, other.workspaceId), input: { id: q!.id } }),
    ).rejects.toMatchObject({
      code: 'quarantine_item_not_found',
    });
  });
});

describeEachBackend('migration 0004 on a database that already has leads', (backend) => {
  it('gives every existing pipeline the default stages and keeps its leads in Inbox', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      const first = await migrator.migrateTo('0001_initial');
      expect(first.error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      await store.db.insertInto('workspaces').values({ id: 'ws_1', name: 'Old', created_at: now }).execute();
      await store.db
        .insertInto('pipelines')
        .values([
          { id: 'pl_1', workspace_id: 'ws_1', name: 'Sales', created_at: now },
          { id: 'pl_2', workspace_id: 'ws_1', name: 'Repairs', created_at: now },
        ])
        .execute();
      await store.db
        .insertInto('lead_sources')
        .values({
          id: 'src_1',
          workspace_id: 'ws_1',
          pipeline_id: 'pl_1',
          name: 'Form',
          token: '00000000-0000-4000-8000-000000000001',
          active: 1,
          bot_check_provider: null,
          bot_check_secret_enc: null,
          bot_check_site_key: null,
          bot_check_min_score: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const old = {
        workspace_id: 'ws_1',
        pipeline_id: 'pl_1',
        source_id: 'src_1',
        extra: '{}',
        bot_check: 'off',
        received_at: now,
      };
      await store.db
        .insertInto('leads')
        .values([
          { ...old, id: 'lead_1', name: 'Old lead', stage: 'inbox' },
          { ...old, id: 'lead_2', name: 'Hand-written', stage: 'Inbox ' },
        ])
        .execute();

      await store.migrate();
      for (const pipelineId of ['pl_1', 'pl_2']) {
        const stages = await store.db
          .selectFrom('stages')
          .select(['key', 'name', 'position'])
          .where('pipeline_id', '=', pipelineId)
          .orderBy('position')
          .execute();
        expect(stages.map((s) => [s.key, s.name, s.position])).toEqual([
          ['inbox', 'Inbox', 0],
          ['contacted', 'Contacted', 1],
          ['quoted', 'Quoted', 2],
          ['won', 'Won', 3],
          ['lost', 'Lost', 4],
        ]);
      }
      const leads = await store.db.selectFrom('leads').select('stage').orderBy('id').execute();
      expect(leads.map((l) => l.stage)).toEqual(['inbox', 'inbox']);
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});

describeEachBackend('migration 0043 on a database whose stages share a name', (backend) => {
  it('renames the later stage of each pair and then refuses a duplicate name', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0042_lighter_lead_writes')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      await store.db.insertInto('workspaces').values({ id: 'ws_1', name: 'Old', created_at: now }).execute();
      await store.db
        .insertInto('pipelines')
        .values({ id: 'pl_1', workspace_id: 'ws_1', name: 'Sales', created_at: now })
        .execute();
      // Two renames that raced before 0043: Won and Lost both called "Booked".
      await store.db
        .insertInto('stages')
        .values([
          { pipeline_id: 'pl_1', key: 'inbox', name: 'Inbox', position: 0, created_at: now },
          { pipeline_id: 'pl_1', key: 'won', name: 'Booked', position: 1, created_at: now },
          { pipeline_id: 'pl_1', key: 'lost', name: 'booked', position: 2, created_at: now },
        ])
        .execute();

      await store.migrate();
      const stages = await store.db
        .selectFrom('stages')
        .select(['key', 'name'])
        .where('pipeline_id', '=', 'pl_1')
        .orderBy('position')
        .execute();
      expect(stages.map((s) => [s.key, s.name])).toEqual([
        ['inbox', 'Inbox'],
        ['won', 'Booked'],
        ['lost', 'booked (2)'],
      ]);
      await expect(
        store.db
          .updateTable('stages')
          .set({ name: 'BOOKED' })
          .where('pipeline_id', '=', 'pl_1')
          .where('key', '=', 'inbox')
          .execute(),
      ).rejects.toThrow(/unique/i);
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
