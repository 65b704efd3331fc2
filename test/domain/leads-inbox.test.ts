import { leadCtx } from '../helpers/contexts.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { deleteLead } from '../../src/domain/leads/delete-lead.js';
import { listLeads, type LeadListInput } from '../../src/domain/leads/list-leads.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { unreadCounts } from '../../src/domain/leads/unread-counts.js';
import { createPipeline } from '../../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import { describeEachBackend } from '../helpers/backends.js';
import { leadRow } from '../helpers/hot-rows.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads, minute, updateLeadText } from './leads-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

describeEachBackend('Leads inbox: paging, search, filters, unread, move, delete', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let at: { workspaceId: string; pipelineId: string; sourceId: string };

  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    at = { workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id };
  });
  afterEach(async () => {
    await world.close();
  });

  const list = ({ workspaceId, ...input }: Partial<LeadListInput> & { workspaceId?: string } = {}) =>
    listLeads({ ctx: inWorkspace(world.ctx, workspaceId ?? seeded.workspaceId), input });
  const ids = async (input: Partial<LeadListInput> = {}) =>
    (await list({ limit: 1000, ...input })).leads.map((l) => l.id);

  it('pages newest first by cursor, each lead exactly once, ties on received time included', async () => {
    // 130 leads over 65 distinct instants: every instant holds two leads, so page edges fall inside ties.
    const rows = await insertLeads(
      world,
      at,
      Array.from({ length: 130 }, (_, i) => ({ name: `Lead ${i}`, received_at: minute(Math.floor(i / 2)) })),
    );
    const expected = [...rows]
      .sort((a, b) =>
        a.received_at === b.received_at ? b.id.localeCompare(a.id) : b.received_at.localeCompare(a.received_at),
      )
      .map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await list({ pipelineId: seeded.pipelineId, cursor });
      sizes.push(page.leads.length);
      seen.push(...page.leads.map((l) => l.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([50, 50, 30]);
    expect(seen).toEqual(expected);
    await expect(list({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('searches name, email, phone and notes as a case-insensitive substring; wildcards are literal', async () => {
    const [ada, bob, pct] = await insertLeads(world, at, [
      { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958', received_at: minute(1) },
      {
        name: 'Bob Builder',
        email: 'bob@builder.example',
        notes: 'Needs a QUOTE for the roof',
        received_at: minute(2),
      },
      { name: '100% real', phone: '555-0100', received_at: minute(3) },
    ]);
    expect(await ids({ search: '7946' })).toEqual([ada!.id]);
    expect(await ids({ search: 'LOVELACE' })).toEqual([ada!.id]);
    expect(await ids({ search: 'quote for' })).toEqual([bob!.id]);
    expect(await ids({ search: 'builder.EXAMPLE' })).toEqual([bob!.id]);
    expect(await ids({ search: '%' })).toEqual([pct!.id]);
    expect(await ids({ search: '_' })).toEqual([]);
    expect(await ids({ search: '  ' })).toEqual([pct!.id, bob!.id, ada!.id]);
  });

  it('finds a phone by its digits, and text whatever its accents and case; a search is one phrase', async () => {
    const [accented, plain, other] = await insertLeads(world, at, [
      { name: 'Gagné Rénovations', phone: '+1 514-555-0199', received_at: minute(1) },
      { name: 'Marc Gagne', email: 'marc@example.com', phone: '(450) 555-1234', received_at: minute(2) },
      { name: 'Zoë Tremblay', phone: '819.555.0100', notes: 'Appeler APRÈS 17 h', received_at: minute(3) },
    ]);
    expect(await ids({ search: '5550199' })).toEqual([accented!.id]);
    expect(await ids({ search: '514 555' })).toEqual([accented!.id]);
    expect(await ids({ search: '(514) 555-01' })).toEqual([accented!.id]);
    expect(await ids({ search: '+15145550199' })).toEqual([accented!.id]);
    expect(await ids({ search: '555' })).toEqual([other!.id, plain!.id, accented!.id]);
    expect(await ids({ search: 'gagne' })).toEqual([plain!.id, accented!.id]);
    expect(await ids({ search: 'GAGNÉ' })).toEqual([plain!.id, accented!.id]);
    expect(await ids({ search: 'gagné' })).toEqual([plain!.id, accented!.id]);
    expect(await ids({ search: 'renovations' })).toEqual([accented!.id]);
    expect(await ids({ search: 'zoe' })).toEqual([other!.id]);
    expect(await ids({ search: 'après 17' })).toEqual([other!.id]);
    expect(await ids({ search: 'apres 17' })).toEqual([other!.id]);
    // No match.
    expect(await ids({ search: '5550198' })).toEqual([]);
    expect(await ids({ search: 'gagnon' })).toEqual([]);
    // Under 3 digits a search is plain text: "15" is in the digits 15145550199 but in no field as typed.
    expect(await ids({ search: '15' })).toEqual([]);
    expect(await ids({ search: '1 5' })).toEqual([accented!.id]);
    // Words and digits are one phrase, found inside one field, as before: a name and a phone do not combine.
    expect(await ids({ search: 'gagne 0199' })).toEqual([]);
    expect(await ids({ search: 'marc gagne' })).toEqual([plain!.id]);
  });

  it('finds a lead as intake stores it (the hot writer) by its digits and folded text', async () => {
    const source = { id: seeded.source.id, pipeline_id: seeded.pipelineId };
    await Promise.all(
      [
        { ...leadRow(source, 'Hélène Côté'), phone: '+1 (438) 555-0142' },
        { ...leadRow(source, 'Other Person'), notes: 'Kitchen' },
      ].map((lead) => world.store.hot.write({ kind: 'lead', lead, done: null })),
    );
    const names = async (search: string) => (await list({ search })).leads.map((l) => l.name);
    expect(await names('helene cote')).toEqual(['Hélène Côté']);
    expect(await names('4385550142')).toEqual(['Hélène Côté']);
    expect(await names('555 01')).toEqual(['Hélène Côté']);
    expect(await names('KITCHEN')).toEqual(['Other Person']);
  });

  it('finds a lead by the answers to a source’s own fields (extra), each answer one field of its own', async () => {
    const source = { id: seeded.source.id, pipeline_id: seeded.pipelineId };
    // Through intake's own INSERT (PostgreSQL computes the document there) and straight into the table.
    await world.store.hot.write({
      kind: 'lead',
      lead: {
        ...leadRow(source, 'Hot Lead'),
        extra: JSON.stringify({ 'Project type': 'Loft conversion', Budget: 'Über 10k' }),
      },
      done: null,
    });
    await insertLeads(world, at, [
      { name: 'Plain', extra: '{}', received_at: minute(1) },
      {
        name: 'Listed',
        extra: JSON.stringify({ Rooms: '["Attic","Cellar"]', Note: 'conversion' }),
        received_at: minute(2),
      },
    ]);
    const names = async (search: string) => (await list({ search })).leads.map((l) => l.name).sort();
    expect(await names('LOFT CONVERSION')).toEqual(['Hot Lead']);
    expect(await names('uber 10')).toEqual(['Hot Lead']);
    expect(await names('conversion')).toEqual(['Hot Lead', 'Listed']);
    expect(await names('cellar')).toEqual(['Listed']);
    // Answers are separate fields: a phrase across two of them, or across the keys, finds nothing.
    expect(await names('conversion über')).toEqual([]);
    expect(await names('project type')).toEqual([]);
  });

  it('answers exactly: a lead holding every trigram of a term but not the term is not found', async () => {
    const [holds, scattered] = await insertLeads(world, at, [
      { name: 'Kitchen Refit', notes: 'side door is easier', received_at: minute(1) },
      // "abcd" has the trigrams abc and bcd; so does "abcXbcd", which does not contain it.
      { name: 'Scattered', notes: 'abcXbcd and side, then door', received_at: minute(2) },
    ]);
    expect(await ids({ search: 'abcd' })).toEqual([]);
    expect(await ids({ search: 'abcx' })).toEqual([scattered!.id]);
    expect(await ids({ search: 'SIDE DOOR' })).toEqual([holds!.id]);
    expect(await ids({ search: 'kitchen refit' })).toEqual([holds!.id]);
  });

  it('keeps search in step with leads that are renamed or deleted', async () => {
    const [ada, bob] = await insertLeads(world, at, [
      { name: 'Ada Lovelace', received_at: minute(1) },
      { name: 'Bob Builder', received_at: minute(2) },
    ]);
    await updateLeadText(world, ada!.id, { name: 'Ada Byron' });
    expect(await ids({ search: 'lovelace' })).toEqual([]);
    expect(await ids({ search: 'byron' })).toEqual([ada!.id]);
    await world.store.db.deleteFrom('leads').where('id', '=', bob!.id).execute();
    expect(await ids({ search: 'builder' })).toEqual([]);
  });

  it('finds every match of a common term too (on SQLite past the trigram shortcut, by scanning in page order)', async () => {
    await insertLeads(world, at, [
      ...Array.from({ length: 2050 }, (_, i) => ({ name: `Common ${i}`, received_at: minute(i) })),
      { name: 'Rare one', notes: 'common in the notes, upper case: COMMON', received_at: minute(5000) },
    ]);
    const first = await list({ search: 'COMMON' });
    expect(first.leads.map((l) => l.name).slice(0, 3)).toEqual(['Rare one', 'Common 2049', 'Common 2048']);
    expect(first.leads).toHaveLength(50);
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await list({ search: 'common', limit: 1000, cursor });
      for (const lead of page.leads) seen.add(lead.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.size).toBe(2051);
    expect(await ids({ search: 'common 204' })).toHaveLength(11);
    expect(await ids({ search: 'CÖMMON 204' })).toHaveLength(11);
  });

  it('filters by stage, source, bot check and received dates, and the filters combine', async () => {
    const other = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: seeded.pipelineId, name: 'Facebook ad' },
    });
    const [a, b, c, d] = await insertLeads(world, at, [
      { name: 'A', received_at: '2026-03-01T08:00:00.000Z', bot_check: 'passed' },
      { name: 'B', received_at: '2026-03-02T23:59:59.999Z', source_id: other.id },
      { name: 'C', received_at: '2026-03-03T00:00:00.000Z', source_id: other.id, bot_check: 'unverified' },
      { name: 'D', received_at: '2026-03-04T12:00:00.000Z' },
    ]);
    await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: c!.id, stage: 'contacted', by: CLI_ACTOR },
    });
    await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: d!.id, stage: 'Contacted', by: CLI_ACTOR },
    });

    expect(await ids({ stage: 'contacted' })).toEqual([d!.id, c!.id]);
    expect(await ids({ stage: 'Inbox' })).toEqual([b!.id, a!.id]);
    expect(await ids({ source: 'Facebook ad' })).toEqual([c!.id, b!.id]);
    expect(await ids({ source: other.id, stage: 'contacted' })).toEqual([c!.id]);
    expect(await ids({ botCheck: 'passed' })).toEqual([a!.id]);
    expect(await ids({ since: '2026-03-02', until: '2026-03-02' })).toEqual([b!.id]);
    expect(await ids({ since: '2026-03-03T00:00:00.000Z' })).toEqual([d!.id, c!.id]);
    expect(await ids({ until: '2026-03-03T00:00:00.000Z' })).toEqual([c!.id, b!.id, a!.id]);
    expect(
      await ids({ pipelineId: seeded.pipelineId, stage: 'contacted', source: 'Website form', search: 'd' }),
    ).toEqual([d!.id]);

    await expect(list({ stage: 'Nope' })).rejects.toMatchObject({ code: 'stage_not_found' });
    await expect(list({ source: 'Nope' })).rejects.toMatchObject({ code: 'source_not_found' });
    await expect(list({ botCheck: 'maybe' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(list({ since: 'last tuesday' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(list({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('a lead is new until someone opens it; unread counts per pipeline follow', async () => {
    const second = await createPipeline({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { name: 'Repairs' },
    });
    const [a] = await insertLeads(world, at, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const counts = () => unreadCounts({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(await counts()).toEqual([
      { pipelineId: seeded.pipelineId, name: 'Sales', unread: 3 },
      { pipelineId: second.id, name: 'Repairs', unread: 0 },
    ]);

    const opened = await openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: a!.id } });
    expect(opened.wasNew).toBe(true);
    expect((await counts())[0]!.unread).toBe(2);
    const again = await openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: a!.id } });
    expect(again.wasNew).toBe(false);
    expect((await counts())[0]!.unread).toBe(2);
    const flags = Object.fromEntries((await list()).leads.map((l) => [l.name, l.isNew]));
    expect(flags).toEqual({ A: false, B: true, C: true });

    // Reading without marking (the CLI's `leads show`) leaves it new.
    const [d] = await insertLeads(world, at, [{ name: 'D' }]);
    await openLead({ ctx: await leadCtx(world.ctx, d!.id), input: { id: d!.id, markOpened: false } });
    expect((await counts())[0]!.unread).toBe(3);

    await deleteLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: a!.id } });
    expect((await counts())[0]!.unread).toBe(3);
    await deleteLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: d!.id } });
    expect((await counts())[0]!.unread).toBe(2);
    expect(await ids()).toHaveLength(2);
  });

  it('moves a lead with history (who, when, from, to); a move to its own stage writes nothing', async () => {
    const [a] = await insertLeads(world, at, [{ name: 'A' }]);
    const first = await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: {
        id: a!.id,
        stage: 'Contacted',
        by: { userId: 'usr_1', label: 'Ann Owner' },
      },
    });
    expect(first.moved).toMatchObject({
      fromStage: 'inbox',
      toStage: 'contacted',
      byUserId: 'usr_1',
      byLabel: 'Ann Owner',
    });
    expect(
      (
        await moveLead({
          ctx: inWorkspace(world.ctx, seeded.workspaceId),
          input: { id: a!.id, stage: 'contacted', by: CLI_ACTOR },
        })
      ).moved,
    ).toBeNull();
    await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: a!.id, stage: 'won', by: CLI_ACTOR },
    });
    const detail = await openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: a!.id } });
    expect(detail.stage).toBe('won');
    expect(detail.stageName).toBe('Won');
    expect(detail.history.map((h) => [h.fromName, h.toName, h.byLabel, h.byUserId])).toEqual([
      ['Inbox', 'Contacted', 'Ann Owner', 'usr_1'],
      ['Contacted', 'Won', 'cli', null],
    ]);
    expect(detail.history.every((h) => !Number.isNaN(Date.parse(h.movedAt)))).toBe(true);
    await expect(
      moveLead({
        ctx: inWorkspace(world.ctx, seeded.workspaceId),
        input: { id: a!.id, stage: 'Archive', by: CLI_ACTOR },
      }),
    ).rejects.toMatchObject({ code: 'stage_not_found' });
  });

  it("another workspace's lead is not found for open, move and delete", async () => {
    const [a] = await insertLeads(world, at, [{ name: 'A' }]);
    const other = await world.seed('Other Co');
    for (const attempt of [
      () => openLead({ ctx: inWorkspace(world.ctx, other.workspaceId), input: { id: a!.id } }),
      () =>
        moveLead({ ctx: inWorkspace(world.ctx, other.workspaceId), input: { id: a!.id, stage: 'won', by: CLI_ACTOR } }),
      () => deleteLead({ ctx: inWorkspace(world.ctx, other.workspaceId), input: { id: a!.id } }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'lead_not_found' });
    }
    expect(await list({ workspaceId: other.workspaceId })).toEqual({ leads: [], nextCursor: null });
    await expect(list({ workspaceId: other.workspaceId, pipelineId: seeded.pipelineId })).rejects.toMatchObject({
      code: 'pipeline_not_found',
    });
    expect((await openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: a!.id } })).stage).toBe(
      'inbox',
    );
  });
});
