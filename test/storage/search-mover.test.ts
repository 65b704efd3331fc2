import { afterEach, beforeEach, expect, it } from 'vitest';
import { deleteLead } from '../../src/domain/leads/delete-lead.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { startSearchMover } from '../../src/jobs/search-mover.js';
import { moveSearchDocuments } from '../../src/storage/postgres-search-mover.js';
import { searchDocument } from '../../src/storage/search-text.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads, minute } from '../domain/leads-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

/**
 * PostgreSQL keeps a lead's search document beside the lead (migration 0025): the INSERT puts it in
 * `lead_search_pending`, the search mover moves it under the trigram index into `lead_search`. Search must find a
 * lead the moment it is stored, before and after the move, and never twice.
 */
describeEachBackend('search documents beside the leads, and the search mover', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;

  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const search = async (term: string) =>
    (
      await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { search: term, limit: 1000 } })
    ).leads.map((l) => l.id);
  const where = async () => {
    const [moved, pending] = await Promise.all([
      world.store.db.selectFrom('lead_search').select(['lead_id', 'search_text']).orderBy('lead_id').execute(),
      world.store.db.selectFrom('lead_search_pending').select(['lead_id', 'search_text']).orderBy('lead_id').execute(),
    ]);
    return { moved, pending };
  };

  it('an intake post is found at once, before the move and after it, and the move puts each document under the index exactly once', async () => {
    const base = await world.listen();
    const post = async (body: object) => {
      const res = await fetch(`${base}/api/intake/${seeded.source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const gagne = await post({ name: 'Émile Gagné', phone: '+1 514-555-0199' });
    const other = await post({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const mover = startSearchMover(world.ctx, () => undefined, { everyMs: 0 });
    try {
      if (backend === 'sqlite') {
        // SQLite keeps its search index file off the write path already: nothing to move.
        expect(await mover.runOnce()).toBe(0);
        expect(await search('gagne')).toEqual([gagne]);
        return;
      }
      const before = await where();
      expect(before.moved).toEqual([]);
      expect(before.pending.map((r) => r.lead_id).sort()).toEqual([gagne, other].sort());
      expect(await search('GAGNE')).toEqual([gagne]);
      expect(await search('5550199')).toEqual([gagne]);

      expect(await mover.runOnce()).toBe(2);
      const after = await where();
      expect(after.pending).toEqual([]);
      expect(after.moved).toEqual(before.pending);
      expect(await search('GAGNE')).toEqual([gagne]);
      expect(await search('514 555')).toEqual([gagne]);
      expect(await search('lovelace')).toEqual([other]);
      expect(await mover.runOnce()).toBe(0);
    } finally {
      await mover.stop();
    }
  });

  it('movers on several connections at once move every document once; a search meanwhile finds each lead once', async () => {
    if (backend === 'sqlite') return;
    const at = { workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id };
    const rows = await insertLeads(
      world,
      at,
      Array.from({ length: 1000 }, (_, i) => ({ name: `Tremblay ${i}`, received_at: minute(i) })),
    );
    const searching = search('tremblay');
    const moved = await Promise.all(Array.from({ length: 5 }, () => moveSearchDocuments(world.store.db, 150)));
    // Each mover took batches of 150 until its last came short; the rest of the pending rows are moved below.
    const rest = await startSearchMover(world.ctx, () => undefined, { everyMs: 0 }).runOnce();
    expect(moved.reduce((a, b) => a + b, 0) + (rest ?? 0)).toBe(rows.length);
    expect((await searching).sort()).toEqual(rows.map((r) => r.id).sort());
    const { moved: documents, pending } = await where();
    expect(pending).toEqual([]);
    expect(documents).toEqual(
      rows
        .map((r) => ({ lead_id: r.id, search_text: searchDocument(r) }))
        .sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1)),
    );
    expect((await search('tremblay 99')).length).toBe(11);
  });

  it('a deleted lead takes its document with it, moved or not', async () => {
    if (backend === 'sqlite') return;
    const at = { workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id };
    const [first] = await insertLeads(world, at, [{ name: 'Moved Lead' }]);
    expect(await moveSearchDocuments(world.store.db)).toBe(1);
    const [second, kept] = await insertLeads(world, at, [{ name: 'Pending Lead' }, { name: 'Kept Lead' }]);
    await deleteLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: first!.id } });
    await deleteLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: second!.id } });
    const { moved, pending } = await where();
    expect(moved).toEqual([]);
    expect(pending).toEqual([{ lead_id: kept!.id, search_text: searchDocument(kept!) }]);
  });
});
