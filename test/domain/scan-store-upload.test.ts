import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import { listScans } from '../../src/domain/scans/list-scans.js';
import { readScanRaw, readScanRoom } from '../../src/domain/scans/read-scan-bytes.js';
import { MAX_ROOM_NAME_LENGTH, roomDisplayName, storeUpload } from '../../src/domain/scans/store-upload.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { uploadBodyText } from '../fixtures/json-text-arbitrary.js';
import { generateScanExchange, toJsonText } from '../fixtures/scan-exchange.js';
import { handOver } from '../../src/storage/hot-writes/scan.js';
import { inWorkspace } from '../../src/domain/context.js';

/** The rooms JSON.parse sees in a body (the oracle), with a leading BOM ignored. */
function parsedRooms(body: Buffer): unknown[] {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  return (JSON.parse(text) as { rooms: unknown[] }).rooms;
}

function oracleName(room: unknown, index: number): string {
  const name = Object.hasOwn(room as object, 'name') ? (room as { name: unknown }).name : undefined;
  return roomDisplayName(typeof name === 'string' ? name : undefined, index);
}

async function expectCode(promise: Promise<unknown>, code: string, detail?: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (detail) expect((error as AppError).detail).toMatch(detail);
}

describeEachBackend('storeUpload', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await world.seed('Store');
  });
  afterAll(async () => {
    await world.close();
  });

  const store = (body: Buffer | string, extra: Partial<Parameters<typeof storeUpload>[0]['input']> = {}) =>
    storeUpload({
      ctx: world.ctx,
      input: { workspaceId: ws.workspaceId, body: handOver(Buffer.from(body)), userAgent: 'test-agent/1', ...extra },
    });
  const scanCount = async () =>
    Number(
      (
        await world.store.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('round trip: any valid body and each room come back byte for byte, names as JSON.parse sees them', async () => {
    await fc.assert(
      fc.asyncProperty(uploadBodyText({ valid: true, maxRooms: 5 }), async (text) => {
        const body = Buffer.from(text);
        const rooms = parsedRooms(body);
        const result = await store(body);
        expect(result.count).toBe(rooms.length);
        if (rooms.length === 0) {
          expect(result.scanId).toBeNull();
          return;
        }
        const scanId = result.scanId!;
        expect(
          (await readScanRaw({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId } })).equals(body),
        ).toBe(true);
        for (let i = 0; i < rooms.length; i++) {
          const bytes = await readScanRoom({
            ctx: inWorkspace(world.ctx, ws.workspaceId),
            input: { scanId, index: i },
          });
          // The stored room is a piece of the body (never re-serialized) and means what JSON.parse says.
          expect(body.indexOf(bytes)).toBeGreaterThanOrEqual(0);
          expect(JSON.stringify(JSON.parse(bytes.toString('utf8')))).toBe(JSON.stringify(rooms[i]));
        }
        const listed = (await listScans({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { limit: 1 } }))[0]!;
        expect(listed.id).toBe(scanId);
        expect(listed.rooms).toEqual(rooms.map((room, index) => ({ index, name: oracleName(room, index) })));
      }),
      { numRuns: 60 },
    );
  });

  it('stores the scan row: received time, count, byte size, user agent, and touches the key times', async () => {
    const body = Buffer.from(
      toJsonText(generateScanExchange({ seed: 11, rooms: 3, extra: { device: 'x' } }), { style: 'varied', seed: 4 }),
    );
    const before = new Date().toISOString();
    // A workspace of its own: the key times are written at most once a minute per workspace.
    const fresh = await world.seed('Touch');
    const { scanId, count } = await store(body, { workspaceId: fresh.workspaceId });
    expect(count).toBe(3);
    const row = await world.store.db
      .selectFrom('scans')
      .selectAll()
      .where('id', '=', scanId!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ workspace_id: fresh.workspaceId, user_agent: 'test-agent/1', idempotency_key: null });
    expect(Number(row.room_count)).toBe(3);
    expect(Number(row.byte_size)).toBe(body.length);
    expect(row.received_at >= before).toBe(true);
    const key = await world.store.db
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', fresh.workspaceId)
      .executeTakeFirstOrThrow();
    expect(key.last_used_at).toBe(row.received_at);
    expect(key.last_connected_at).toBe(row.received_at);
  });

  it('a connection test stores nothing and updates only last_connected_at', async () => {
    const probe = await world.seed('Probe');
    const scansBefore = await scanCount();
    const result = await store('{"rooms":[], "device":"probe"}', { workspaceId: probe.workspaceId });
    expect(result).toEqual({ kind: 'scan', scanId: null, count: 0 });
    expect(await scanCount()).toBe(scansBefore);
    const key = await world.store.db
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', probe.workspaceId)
      .executeTakeFirstOrThrow();
    expect(key.last_connected_at).not.toBeNull();
    expect(key.last_used_at).toBeNull();
  });

  it('stores each room once, as a byte range of the stored body', async () => {
    const body = Buffer.from('{"rooms":[{"name":"A","w":[1,2]} , {"name":"B"}],"x":1}');
    const { scanId } = await store(body);
    const rooms = await world.store.db
      .selectFrom('scan_rooms')
      .selectAll()
      .where('scan_id', '=', scanId!)
      .orderBy('idx')
      .execute();
    expect(rooms.map((r) => [Number(r.raw_start), Number(r.raw_end), Buffer.from(r.raw).length])).toEqual([
      [10, 32, 0],
      [35, 47, 0],
    ]);
    expect(
      (
        await readScanRoom({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId: scanId!, index: 1 } })
      ).toString(),
    ).toBe('{"name":"B"}');
  });

  it.each([
    ['empty body', '', 'unreadable_body'],
    ['not JSON', 'rooms=1', 'unreadable_body'],
    ['truncated JSON', '{"rooms":[{}', 'unreadable_body'],
    ['a JSON array', '[{"rooms":[]}]', 'invalid_rooms'],
    ['no rooms', '{"room":[]}', 'invalid_rooms'],
    ['rooms not an array', '{"rooms":{"0":{}}}', 'invalid_rooms'],
    ['rooms null', '{"rooms":null}', 'invalid_rooms'],
    ['an array rooms overridden by a later non-array', '{"rooms":[{}],"rooms":"x"}', 'invalid_rooms'],
  ])('refuses %s with %s and stores nothing', async (_label, body, code) => {
    const before = await scanCount();
    await expectCode(store(body), code);
    expect(await scanCount()).toBe(before);
  });

  it('refuses invalid UTF-8 as unreadable_body', async () => {
    await expectCode(store(Buffer.from([0x7b, 0x22, 0x72, 0xff, 0x22, 0x3a, 0x5b, 0x5d, 0x7d])), 'unreadable_body');
  });

  it('invalid_rooms names the first entry that is not an object', async () => {
    await expectCode(store('{"rooms":[{}, {}, [1], "x"]}'), 'invalid_rooms', /rooms\[2\]/);
    await expectCode(store('{"rooms":[null]}'), 'invalid_rooms', /rooms\[0\]/);
  });

  it('takes 500 rooms and refuses 501 with too_many_rooms', async () => {
    const rooms = (n: number) => `{"rooms":[${Array.from({ length: n }, (_, i) => `{"i":${i}}`).join(',')}]}`;
    await expectCode(store(rooms(501)), 'too_many_rooms', /501/);
    const { scanId, count } = await store(rooms(500));
    expect(count).toBe(500);
    const last = await readScanRoom({
      ctx: inWorkspace(world.ctx, ws.workspaceId),
      input: { scanId: scanId!, index: 499 },
    });
    expect(last.toString()).toBe('{"i":499}');
    const listed = await world.store.db
      .selectFrom('scan_rooms')
      .select('name')
      .where('scan_id', '=', scanId!)
      .where('idx', '=', 499)
      .executeTakeFirstOrThrow();
    expect(listed.name).toBe('Room 500');
  });

  it('lists names as storable text: NUL and lone surrogates replaced, long names cut; raw bytes untouched', async () => {
    const long = 'é'.repeat(MAX_ROOM_NAME_LENGTH + 50);
    const text = `{"rooms":[{"name":"a\\u0000b"},{"name":"x\\ud800y"},{"name":"${long}"},{"name":7},{}]}`;
    const { scanId } = await store(text);
    const rows = await world.store.db
      .selectFrom('scan_rooms')
      .select(['idx', 'name'])
      .where('scan_id', '=', scanId!)
      .orderBy('idx')
      .execute();
    expect(rows.map((r) => r.name)).toEqual([
      'a\uFFFDb',
      'x\uFFFDy',
      `${'é'.repeat(MAX_ROOM_NAME_LENGTH - 1)}…`,
      'Room 4',
      'Room 5',
    ]);
    expect(
      (
        await readScanRoom({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId: scanId!, index: 0 } })
      ).toString(),
    ).toBe('{"name":"a\\u0000b"}');
  });

  it('keeps __proto__ keys as data and never touches Object.prototype', async () => {
    const text =
      '{"__proto__":{"polluted":true},"rooms":[{"__proto__":{"name":"evil"},"constructor":{"prototype":{"polluted":1}}}]}';
    const { scanId } = await store(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(
      (await readScanRaw({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId: scanId! } })).toString(),
    ).toBe(text);
    const room = await world.store.db
      .selectFrom('scan_rooms')
      .select('name')
      .where('scan_id', '=', scanId!)
      .executeTakeFirstOrThrow();
    expect(room.name).toBe('Room 1');
  });
});
