import { leadCtx } from '../helpers/contexts.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { submitLead, type IntakeMeta } from '../../src/domain/intake/submit-lead.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { deleteLead } from '../../src/domain/leads/delete-lead.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { unreadCounts } from '../../src/domain/leads/unread-counts.js';
import { createPipeline } from '../../src/domain/pipelines/create-pipeline.js';
import { deletePipeline } from '../../src/domain/pipelines/delete-pipeline.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const meta: IntakeMeta = {
  clientIp: '203.0.113.7',
  userAgent: 'ua/1',
  origin: 'https://o.example',
  referer: 'https://o.example/f',
};

// The unread counts are counters kept by triggers (migration 0024): they must equal the marks they count, whatever
// runs at once.
describeEachBackend('unread counts: exact under concurrent intake, opening and deleting', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;

  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const counts = async () =>
    Object.fromEntries(
      (await unreadCounts({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} })).map((c) => [
        c.name,
        c.unread,
      ]),
    );
  /** What the counts must be: the marks themselves, counted. */
  const marks = async () => {
    const rows = await world.store.db
      .selectFrom('lead_unread')
      .innerJoin('pipelines', 'pipelines.id', 'lead_unread.pipeline_id')
      .select(['pipelines.name', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('pipelines.name')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  };
  const sourceOf = async (token: string): Promise<LeadSource> =>
    openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(token) } });
  const submit = (source: LeadSource, name: string) =>
    submitLead({ ctx: world.ctx, input: { source, body: { name, email: `${name}@example.com` }, meta } });

  it('follow every lead stored, opened and deleted while intake runs on two pipelines', async () => {
    const repairs = await createPipeline({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { name: 'Repairs' },
    });
    const repairsSource = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: repairs.id, name: 'Web' },
    });
    const sales = await sourceOf(seeded.source.token);
    const other = await sourceOf(repairsSource.token);
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(i % 2 ? sales : other, `first${i}`)));
    expect(await counts()).toEqual({ Sales: 20, Repairs: 20 });

    // At once: 120 more leads on both pipelines, 20 of the first opened (some twice), 6 deleted, 4 read without marking.
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 120; i += 1) work.push(submit(i % 3 ? sales : other, `more${i}`));
    first.slice(0, 20).forEach(({ leadId }, i) => {
      work.push(openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId } }));
      if (i % 4 === 0) work.push(openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId } }));
    });
    for (const { leadId } of first.slice(20, 26))
      work.push(deleteLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId } }));
    for (const { leadId } of first.slice(26, 30))
      work.push(openLead({ ctx: await leadCtx(world.ctx, leadId), input: { id: leadId, markOpened: false } }));
    await Promise.all(work);

    // 20 + 20 first, 80 + 40 more; 10 opened on each side, 3 deleted on each side.
    expect(await marks()).toEqual({ Sales: 87, Repairs: 47 });
    expect(await counts()).toEqual({ Sales: 87, Repairs: 47 });

    // A pipeline deleted with its leads leaves no count behind.
    await deletePipeline({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: repairs.id, force: true },
    });
    expect(await counts()).toEqual({ Sales: 87 });
    const left = await world.store.db
      .selectFrom('lead_unread_counts')
      .select('pipeline_id')
      .where('pipeline_id', '=', repairs.id)
      .execute();
    expect(left).toEqual([]);
  });
});
