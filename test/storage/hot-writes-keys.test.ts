import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { KeyDone } from '../../src/storage/hot-writes/idempotency-key.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { leadRow, scanRow } from '../helpers/hot-rows.js';

/**
 * A hot write and the idempotency answer it carries commit together or not at all, also when the write is folded
 * into one statement with others (PostgreSQL) and one of them is refused.
 */
describeEachBackend('hot writes and their idempotency answers', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  let source: { id: string; pipeline_id: string };
  beforeEach(async () => {
    world = await createWorld(backend);
    ws = await world.seed();
    source = await world.store.db
      .selectFrom('lead_sources')
      .select(['id', 'pipeline_id'])
      .where('token', '=', ws.source.token)
      .executeTakeFirstOrThrow();
  });
  afterEach(async () => {
    await world.close();
  });

  const scope = 'test-scope';
  const claimWrite = (key: string) => {
    const now = new Date();
    return world.store.hot.write({
      kind: 'claim',
      claim: {
        scope,
        key,
        requestHash: 'h',
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
        leaseCutoff: new Date(now.getTime() - 60_000).toISOString(),
      },
    });
  };
  const claim = async (key: string) => {
    expect((await claimWrite(key)).kind).toBe('claimed');
  };
  const done = (key: string): KeyDone => ({ scope, key, requestHash: 'h', status: 200, body: `{"for":"${key}"}` });
  const keyStates = async () =>
    Object.fromEntries(
      (
        await world.store.db
          .selectFrom('idempotency_keys')
          .select(['key', 'state', 'response_body'])
          .where('scope', '=', scope)
          .execute()
      ).map((r) => [r.key, `${r.state} ${r.response_body ?? '-'}`]),
    );
  const lead = (name: string, pipeline = source.pipeline_id) => leadRow(source, name, pipeline);
  const scan = (id: string) => scanRow(ws.workspaceId, id);

  it('a batch of leads marks done only the keys of the leads it stored', async () => {
    for (const key of ['k1', 'k2', 'k3']) await claim(key);
    const before = world.store.hot.stats.commits;
    // Queued in the same event-loop turn: one batch, the middle lead refused (its source moved meanwhile).
    const results = await Promise.all([
      world.store.hot.write({ kind: 'lead', lead: lead('a'), done: done('k1') }),
      world.store.hot.write({ kind: 'lead', lead: lead('moved', 'pl_elsewhere'), done: done('k2') }),
      world.store.hot.write({ kind: 'lead', lead: lead('b'), done: done('k3') }),
    ]);
    expect(results.map((r) => r.stored)).toEqual([true, false, true]);
    expect(await keyStates()).toEqual({ k1: 'done {"for":"k1"}', k2: 'in_flight -', k3: 'done {"for":"k3"}' });
    if (backend === 'postgres') expect(world.store.hot.stats.commits - before).toBe(1);
  });

  it('a scan that fails leaves its key in flight and nothing else; the scans batched with it and their keys commit', async () => {
    const taken = newId('scan');
    await world.store.hot.write({
      kind: 'scan',
      scan: scan(taken),
      rooms: [{ name: 'A', start: 10, end: 17 }],
      done: null,
    });
    for (const key of ['k1', 'k2', 'k3']) await claim(key);
    const ids = [newId('scan'), newId('scan')];
    const outcomes = await Promise.allSettled([
      world.store.hot.write({
        kind: 'scan',
        scan: scan(ids[0]!),
        rooms: [{ name: 'A', start: 10, end: 17 }],
        done: done('k1'),
      }),
      world.store.hot.write({
        kind: 'scan',
        scan: scan(taken),
        rooms: [
          { name: 'B', start: 10, end: 17 },
          { name: 'C', start: 1, end: 2 },
        ],
        done: done('k2'),
      }),
      world.store.hot.write({
        kind: 'scan',
        scan: scan(ids[1]!),
        rooms: [{ name: 'A', start: 10, end: 17 }],
        done: done('k3'),
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await keyStates()).toEqual({ k1: 'done {"for":"k1"}', k2: 'in_flight -', k3: 'done {"for":"k3"}' });
    const rooms = await world.store.db
      .selectFrom('scan_rooms')
      .select(['scan_id', 'idx', 'name'])
      .orderBy('scan_id')
      .orderBy('idx')
      .execute();
    expect(rooms).toEqual(
      [
        { scan_id: taken, idx: 0, name: 'A' },
        { scan_id: ids[0], idx: 0, name: 'A' },
        { scan_id: ids[1], idx: 0, name: 'A' },
      ].sort((a, b) => (a.scan_id! < b.scan_id! ? -1 : 1)),
    );
  });

  it('a batch of claims: new keys are claimed, a held key answers with its row', async () => {
    await claim('held');
    await world.store.hot.write({ kind: 'lead', lead: lead('a'), done: done('held') });
    const before = world.store.hot.stats.commits;
    const results = await Promise.all([claimWrite('new1'), claimWrite('held'), claimWrite('new2')]);
    expect(results).toEqual([
      { kind: 'claimed' },
      {
        kind: 'existing',
        row: { request_hash: 'h', state: 'done', response_status: 200, response_body: '{"for":"held"}' },
      },
      { kind: 'claimed' },
    ]);
    if (backend === 'postgres') expect(world.store.hot.stats.commits - before).toBe(1);
    expect(await keyStates()).toEqual({ held: 'done {"for":"held"}', new1: 'in_flight -', new2: 'in_flight -' });
  });

  it('one key claimed twice in a batch is claimed once; the other claim finds it in flight', async () => {
    const results = await Promise.all([claimWrite('twice'), claimWrite('other'), claimWrite('twice')]);
    expect(results[1]).toEqual({ kind: 'claimed' });
    const twice = [results[0]!, results[2]!];
    expect(twice.filter((r) => r.kind === 'claimed')).toHaveLength(1);
    const lost = twice.find((r) => r.kind === 'existing');
    // PostgreSQL runs the two alone side by side: the loser may not see the winner's row yet (null: "in flight").
    expect(lost && lost.kind === 'existing' && (lost.row === null || lost.row.state === 'in_flight')).toBe(true);
  });
});
