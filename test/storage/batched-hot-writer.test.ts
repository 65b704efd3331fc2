/**
 * The hot writes through the commit batcher alone (LEADSCAN_WRITE_PATH=batcher, the bench's other write path,
 * docs/performance.md "One write path or two"): intake, a catch, a refused lead, a scan upload and idempotent replays
 * answer as on the hot writers, so the bench compares two paths that do the same thing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BatchedHotWriter } from '../../src/storage/batched-hot-writer.js';
import { describeEachBackend } from '../helpers/backends.js';
import { leadRow } from '../helpers/hot-rows.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('the commit batcher as the hot write path', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend, { env: { LEADSCAN_WRITE_PATH: 'batcher' } });
    ws = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const post = async (url: string, payload: string, headers: Record<string, string>) =>
    (await world.app()).inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });

  it('stores intake, catches and uploads, and replays an idempotent repeat', async () => {
    expect(world.store.hot).toBeInstanceOf(BatchedHotWriter);
    const intakeUrl = `/api/intake/${ws.source.token}`;
    const first = await post(intakeUrl, JSON.stringify({ name: 'Ada' }), { 'idempotency-key': 'k1' });
    expect(first.statusCode).toBe(200);
    const again = await post(intakeUrl, JSON.stringify({ name: 'Ada' }), { 'idempotency-key': 'k1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await post(intakeUrl, JSON.stringify({ name: 'Bob' }), { 'idempotency-key': 'k1' });
    expect(other.statusCode).toBe(422);

    const caught = await post(intakeUrl, JSON.stringify({ name: 'Bot', website: 'x' }), {});
    expect(caught.statusCode).toBe(200);

    const scan = '{"rooms":[{"name":"A"},{"name":"B"}]}';
    const upload = await post('/api/scan/upload', scan, { 'x-scan-key': ws.uploadKey, 'idempotency-key': 's1' });
    expect(upload.statusCode).toBe(200);
    const uploadAgain = await post('/api/scan/upload', scan, { 'x-scan-key': ws.uploadKey, 'idempotency-key': 's1' });
    expect(uploadAgain.json()).toEqual(upload.json());
    expect(uploadAgain.headers['idempotent-replayed']).toBe('true');

    const db = world.store.db;
    const leads = await db.selectFrom('leads').select(['id', 'name', 'idempotency_key']).execute();
    expect(leads).toEqual([{ id: first.json().id, name: 'Ada', idempotency_key: 'k1' }]);
    expect(await db.selectFrom('quarantine').select(['reason']).execute()).toEqual([{ reason: 'honeypot' }]);
    const scans = await db.selectFrom('scans').select(['id', 'room_count']).execute();
    expect(scans).toEqual([{ id: expect.any(String), room_count: 2 }]);
    const rooms = await db.selectFrom('scan_rooms').select(['idx']).where('scan_id', '=', scans[0]!.id).execute();
    expect(rooms.map((r) => r.idx).sort()).toEqual([0, 1]);
    const keys = await db.selectFrom('idempotency_keys').select(['key', 'state']).orderBy('key').execute();
    expect(keys).toEqual([
      { key: 'k1', state: 'done' },
      { key: 's1', state: 'done' },
    ]);
  });

  it('refuses a lead whose source moved to another pipeline, and answers a held key with its row', async () => {
    const source = { id: ws.source.id, pipeline_id: ws.pipelineId };
    const moved = await world.store.hot.write({ kind: 'lead', lead: leadRow(source, 'Ada', 'elsewhere'), done: null });
    expect(moved).toEqual({ kind: 'stored', stored: false });
    const stored = await world.store.hot.write({ kind: 'lead', lead: leadRow(source, 'Ada'), done: null });
    expect(stored).toEqual({ kind: 'stored', stored: true });

    const claim = {
      scope: 'test',
      key: 'held',
      requestHash: 'h',
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      leaseCutoff: new Date(Date.now() - 60_000).toISOString(),
    };
    expect(await world.store.hot.write({ kind: 'claim', claim })).toEqual({ kind: 'claimed' });
    expect(await world.store.hot.write({ kind: 'claim', claim })).toEqual({
      kind: 'existing',
      row: { request_hash: 'h', state: 'in_flight', response_status: null, response_body: null },
    });
  });
});
