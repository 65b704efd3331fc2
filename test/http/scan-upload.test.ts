import http from 'node:http';
import net from 'node:net';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regenerateUploadKey } from '../../src/domain/keys/regenerate-upload-key.js';
import { readScanRoom } from '../../src/domain/scans/read-scan-bytes.js';
import { hashUploadKey } from '../../src/domain/secret-box.js';
import { ScanUploadOkSchema } from '../../src/http/routes/scan-upload.js';
import { ProblemSchema } from '../../src/http/problem.js';
import type { App } from '../../src/app.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { refusedScanKeyCases } from '../helpers/scan-key-cases.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { generateScanExchange, toJsonText } from '../fixtures/scan-exchange.js';
import { inWorkspace } from '../../src/domain/context.js';

const URL_PATH = '/api/scan/upload';
// TypeBox's Value.Check knows no formats by default; the Problem schema's `type` is a URI.
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', (value) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value));
const SMALL_LIMIT = 64 * 1024;

describeEachBackend('POST /api/scan/upload', (backend) => {
  let world: TestWorld;
  let app: App;
  let ws: Seeded;
  let other: Seeded;
  beforeAll(async () => {
    // A small SCAN_MAX_BYTES keeps the 413 cases fast here; the real 32 MiB default is in scan-upload-large.
    world = await createWorld(backend, { env: { SCAN_MAX_BYTES: String(SMALL_LIMIT) } });
    app = await world.app();
    ws = await world.seed('Scans A');
    other = await world.seed('Scans B');
  });
  afterAll(async () => {
    await world.close();
  });

  const post = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: { 'x-scan-key': ws.uploadKey, 'content-type': 'application/json', ...headers },
      payload,
    });
  const scansOf = (workspaceId: string) =>
    world.store.db.selectFrom('scans').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  /** Each room with its stored bytes, read through the read verb (a room is a byte range of the scan's body). */
  const roomsOf = async (scanId: string, workspaceId = ws.workspaceId) => {
    const rows = await world.store.db
      .selectFrom('scan_rooms')
      .select(['idx', 'name'])
      .where('scan_id', '=', scanId)
      .orderBy('idx')
      .execute();
    return Promise.all(
      rows.map(async (row) => ({
        ...row,
        raw: await readScanRoom({
          ctx: inWorkspace(world.ctx, workspaceId),
          input: { scanId, index: Number(row.idx) },
        }),
      })),
    );
  };
  const keyRow = (workspaceId: string) =>
    world.store.db
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
  const resetKeyTimes = (workspaceId: string) =>
    world.store.writer.write((trx) =>
      trx
        .updateTable('upload_keys')
        .set({ last_connected_at: null, last_used_at: null })
        .where('workspace_id', '=', workspaceId)
        .execute(),
    );
  const totalScans = async () =>
    Number(
      (
        await world.store.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  function expectProblem(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json();
    expect(Value.Check(ProblemSchema, body)).toBe(true);
    expect(body).toMatchObject({ ok: false, status, code, requestId: res.headers['x-request-id'] });
    expect(body.type).toBe(`http://leadscan.test/problems/${code}`);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    return body as { detail: string };
  }

  describe('refused keys: 401 before anything is read or stored', () => {
    for (const c of refusedScanKeyCases('lsk_' + 'A'.repeat(43))) {
      it(`${c.label} → 401 ${c.code}`, async () => {
        const before = await totalScans();
        await resetKeyTimes(ws.workspaceId);
        const res = await app.inject({
          method: 'POST',
          url: URL_PATH,
          headers: { 'content-type': 'application/json', ...c.headers },
          payload: '{"rooms":[{"name":"A"}]}',
        });
        const body = expectProblem(res, 401, c.code);
        const presented = c.headers['x-scan-key']?.trim() ?? '';
        if (presented.length >= 8) expect(JSON.stringify(body)).not.toContain(presented);
        expect(res.headers.connection).toBe('close');
        expect(await totalScans()).toBe(before);
        expect(await keyRow(ws.workspaceId)).toMatchObject({ last_connected_at: null, last_used_at: null });
      });
    }

    it('mangled versions of the live key are refused too', async () => {
      for (const c of refusedScanKeyCases(ws.uploadKey).filter((x) => x.code === 'invalid_scan_key')) {
        const res = await post('{"rooms":[]}', c.headers);
        expectProblem(res, 401, 'invalid_scan_key');
      }
      expect(await keyRow(ws.workspaceId)).toMatchObject({ last_connected_at: null });
    });

    it('a key under 32 characters is refused without a lookup, even if its hash were stored', async () => {
      const short = 'lsk_' + 'b'.repeat(27); // 31 characters
      const probe = await world.seed('Short key');
      await world.store.writer.write((trx) =>
        trx
          .updateTable('upload_keys')
          .set({ key_hash: hashUploadKey(short) })
          .where('workspace_id', '=', probe.workspaceId)
          .execute(),
      );
      expectProblem(await post('{"rooms":[]}', { 'x-scan-key': short }), 401, 'invalid_scan_key');
      expect(await keyRow(probe.workspaceId)).toMatchObject({ last_connected_at: null });
    });

    it('answers a refused key before reading the body: the client never has to send it', async () => {
      const base = await world.listen();
      const { port } = new URL(base);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('end', () => {
          socket.destroy();
          resolve(Buffer.concat(chunks).toString('latin1'));
        });
        socket.on('error', reject);
        socket.setTimeout(10_000, () => reject(new Error('no answer: the server waited for the body')));
        // Announces 33 MiB but sends only the headers and 1 KiB; the answer (and the server's FIN) must still come.
        socket.write(
          `POST ${URL_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `x-scan-key: lsk_${'Z'.repeat(43)}\r\nContent-Length: ${33 * 1024 * 1024}\r\n\r\n${' '.repeat(1024)}`,
        );
      });
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('"code":"invalid_scan_key"');
    });

    it('a client streaming a body with a refused key gets the 401 (not a reset)', async () => {
      const base = await world.listen();
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${base}${URL_PATH}`, {
          method: 'POST',
          headers: { 'x-scan-key': 'lsk_' + 'Q'.repeat(43), 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        // Chunked: keeps writing until the answer arrives.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!req.destroyed && req.write(chunk));
        };
        req.on('drain', pump);
        pump();
      });
      expect(status).toBe(401);
    });
  });

  describe('body checks', () => {
    it('over SCAN_MAX_BYTES with a Content-Length → 413 body_too_large, nothing stored', async () => {
      const before = await totalScans();
      const big = Buffer.from(`{"rooms":[{"blob":"${'x'.repeat(SMALL_LIMIT)}"}]}`);
      expectProblem(await post(big), 413, 'body_too_large');
      expect(await totalScans()).toBe(before);
    });

    it('over SCAN_MAX_BYTES chunked (no Content-Length) → 413 body_too_large, nothing stored', async () => {
      const before = await totalScans();
      const base = await world.listen();
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${base}${URL_PATH}`, {
          method: 'POST',
          headers: { 'x-scan-key': ws.uploadKey, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        });
        req.on('response', (r) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.write('{"rooms":[{"blob":"');
        for (let i = 0; i < 8; i++) req.write('y'.repeat(SMALL_LIMIT / 4));
        req.end('"}]}');
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'body_too_large' });
      expect(await totalScans()).toBe(before);
    });

    it('exactly SCAN_MAX_BYTES is accepted', async () => {
      const head = '{"rooms":[{"name":"Edge","pad":"';
      const body = Buffer.from(`${head}${'p'.repeat(SMALL_LIMIT - head.length - 4)}"}]}`);
      expect(body.length).toBe(SMALL_LIMIT);
      const res = await post(body);
      expect(res.statusCode).toBe(200);
      const [scan] = (await scansOf(ws.workspaceId)).slice(-1);
      expect(Buffer.from(scan!.raw).equals(body)).toBe(true);
    });

    it.each([
      ['invalid JSON', '{"rooms":[', {}],
      ['an empty JSON body', '', {}],
      ['an empty body without a content type', '', { 'content-type': '' }],
      ['a form-encoded body', 'rooms=[]', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), {}],
      ['a BOM in the middle', '{"rooms":\uFEFF[]}', {}],
    ] as const)('%s → 400 unreadable_body, nothing stored', async (_label, payload, headers) => {
      const before = await totalScans();
      await resetKeyTimes(ws.workspaceId);
      expectProblem(await post(payload, { ...headers }), 400, 'unreadable_body');
      expect(await totalScans()).toBe(before);
      expect(await keyRow(ws.workspaceId)).toMatchObject({ last_connected_at: null, last_used_at: null });
    });

    it.each([
      ['a JSON array', '[]', /object/],
      ['a JSON string', '"rooms"', /object/],
      ['no rooms', '{"scans":[]}', /rooms/],
      ['rooms not an array', '{"rooms":{"name":"A"}}', /rooms/],
      ['a non-object entry', '{"rooms":[{"name":"A"},{"name":"B"},"C"]}', /rooms\[2\]/],
      ['a null entry', '{"rooms":[null]}', /rooms\[0\]/],
    ])('%s → 400 invalid_rooms naming the problem, nothing stored', async (_label, payload, detail) => {
      const before = await totalScans();
      const body = expectProblem(await post(payload), 400, 'invalid_rooms');
      expect(body.detail).toMatch(detail);
      expect(await totalScans()).toBe(before);
    });

    it('501 rooms → 400 too_many_rooms, nothing stored', async () => {
      const before = await totalScans();
      const payload = `{"rooms":[${Array(501).fill('{}').join(',')}]}`;
      const body = expectProblem(await post(payload), 400, 'too_many_rooms');
      expect(body.detail).toMatch(/500/);
      expect(await totalScans()).toBe(before);
    });
  });

  describe('accepted uploads', () => {
    it('rooms: [] is a connection test: 200 count 0, nothing stored, last_connected_at set', async () => {
      // A workspace of its own: the key times are written at most once a minute per workspace.
      const probe = await world.seed('Connection test');
      const before = await totalScans();
      const res = await post('{"rooms":[]}', { 'x-scan-key': probe.uploadKey });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, count: 0 });
      expect(await totalScans()).toBe(before);
      const key = await keyRow(probe.workspaceId);
      expect(key.last_connected_at).not.toBeNull();
      expect(key.last_used_at).toBeNull();
    });

    it('stores the body and each room byte for byte, with names, count, size and user agent', async () => {
      const text = toJsonText(
        generateScanExchange({ seed: 42, rooms: 3, meshBytes: (i) => i * 4000, extra: { app: 'Scanner 2.1' } }),
        { style: 'varied', seed: 42 },
      );
      const body = Buffer.from(text);
      const fresh = await world.seed('Byte for byte');
      const res = await post(body, { 'user-agent': 'RoomScanner/2.1 (iPhone)', 'x-scan-key': fresh.uploadKey });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Value.Check(ScanUploadOkSchema, res.json())).toBe(true);
      expect(res.json()).toEqual({ ok: true, count: 3 });
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);

      const [scan] = (await scansOf(fresh.workspaceId)).slice(-1);
      expect(Buffer.from(scan!.raw).equals(body)).toBe(true);
      expect(scan).toMatchObject({ user_agent: 'RoomScanner/2.1 (iPhone)' });
      expect(Number(scan!.room_count)).toBe(3);
      expect(Number(scan!.byte_size)).toBe(body.length);
      const parsed = JSON.parse(text) as { rooms: Array<{ name: string }> };
      const rooms = await roomsOf(scan!.id, fresh.workspaceId);
      expect(rooms.map((r) => r.name)).toEqual(parsed.rooms.map((r) => r.name));
      rooms.forEach((room, i) => {
        const bytes = Buffer.from(room.raw);
        expect(body.indexOf(bytes)).toBeGreaterThan(0);
        expect(JSON.parse(bytes.toString())).toEqual(parsed.rooms[i]);
      });
      const key = await keyRow(fresh.workspaceId);
      expect(key.last_used_at).toBe(scan!.received_at);
    });

    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['application/octet-stream', { 'content-type': 'application/octet-stream' }],
      ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }],
      ['a charset parameter', { 'content-type': 'application/json; charset=utf-8' }],
      ['an empty content type header', { 'content-type': '' }],
      ['a malformed content type', { 'content-type': 'json please' }],
    ])('reads %s as JSON', async (_label, headers) => {
      const body = `{"rooms":[{"name":"${_label}"}]}`;
      const res = await post(body, headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, count: 1 });
      const [scan] = (await scansOf(ws.workspaceId)).slice(-1);
      expect(Buffer.from(scan!.raw).toString()).toBe(body);
    });

    it('accepts a leading BOM and stores it as sent', async () => {
      const body = Buffer.from('\uFEFF{"rooms":[{"name":"Bom"}]}');
      const res = await post(body);
      expect(res.statusCode).toBe(200);
      const [scan] = (await scansOf(ws.workspaceId)).slice(-1);
      expect(Buffer.from(scan!.raw).equals(body)).toBe(true);
      expect(Buffer.from((await roomsOf(scan!.id))[0]!.raw).toString()).toBe('{"name":"Bom"}');
    });

    it('answers OPTIONS without CORS headers (no preflight is ever granted)', async () => {
      const res = await app.inject({
        method: 'OPTIONS',
        url: URL_PATH,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.statusCode).not.toBe(204);
    });
  });

  describe('keys and workspaces', () => {
    it('regenerating the key refuses the old one at once and the new one works', async () => {
      const ws3 = await world.seed('Regenerate');
      expect((await post('{"rooms":[]}', { 'x-scan-key': ws3.uploadKey })).statusCode).toBe(200);
      const { uploadKey } = await regenerateUploadKey({ ctx: inWorkspace(world.ctx, ws3.workspaceId), input: {} });
      expectProblem(await post('{"rooms":[{"name":"old"}]}', { 'x-scan-key': ws3.uploadKey }), 401, 'invalid_scan_key');
      const res = await post('{"rooms":[{"name":"new"}]}', { 'x-scan-key': uploadKey });
      expect(res.json()).toEqual({ ok: true, count: 1 });
      const scans = await scansOf(ws3.workspaceId);
      expect(scans).toHaveLength(1);
      expect((await roomsOf(scans[0]!.id, ws3.workspaceId)).map((r) => r.name)).toEqual(['new']);
    });

    it('`leadscan key regenerate` (the CLI, another process) takes effect on the running server at once', async () => {
      const ws4 = await world.seed('CLI regenerate');
      const base = await world.listen();
      const send = (key: string) =>
        fetch(`${base}${URL_PATH}`, {
          method: 'POST',
          headers: { 'x-scan-key': key },
          body: '{"rooms":[{"name":"R"}]}',
        });
      expect((await send(ws4.uploadKey)).status).toBe(200);
      const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
      const { uploadKey } = await cliJson<{ uploadKey: string }>(
        ['key', 'regenerate', '--workspace', ws4.workspaceId],
        env,
      );
      const old = await send(ws4.uploadKey);
      expect(old.status).toBe(401);
      expect(((await old.json()) as { code: string }).code).toBe('invalid_scan_key');
      expect((await send(uploadKey)).status).toBe(200);
      expect(await scansOf(ws4.workspaceId)).toHaveLength(2);
    });

    it("workspace A's key only ever writes into workspace A", async () => {
      const beforeB = (await scansOf(other.workspaceId)).length;
      await resetKeyTimes(other.workspaceId);
      const res = await post('{"rooms":[{"name":"A room"}],"workspace":"' + other.workspaceId + '"}');
      expect(res.statusCode).toBe(200);
      expect(await scansOf(other.workspaceId)).toHaveLength(beforeB);
      expect(await keyRow(other.workspaceId)).toMatchObject({ last_used_at: null, last_connected_at: null });
      const [scan] = (await scansOf(ws.workspaceId)).slice(-1);
      expect((await roomsOf(scan!.id)).map((r) => r.name)).toEqual(['A room']);
      const resB = await post('{"rooms":[{"name":"B room"}]}', { 'x-scan-key': other.uploadKey });
      expect(resB.statusCode).toBe(200);
      const scansB = await scansOf(other.workspaceId);
      expect(scansB).toHaveLength(beforeB + 1);
      expect((await roomsOf(scansB.at(-1)!.id, other.workspaceId)).map((r) => r.name)).toEqual(['B room']);
    });
  });

  it('documents the route in OpenAPI: scanKey security, every answer with the Problem schema', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/scan/upload'].post;
    expect(op.security).toEqual([{ scanKey: [] }]);
    // Other answers (e.g. Idempotency-Key conflicts) may be added; these must all be there.
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413', '429', '503']));
    for (const status of ['400', '401', '413', '429', '503']) {
      const media = op.responses[status].content['application/problem+json'];
      expect(JSON.stringify(media.schema)).toContain('Problem');
      expect(op.responses[status].description).toMatch(/`/);
    }
    expect(JSON.stringify(op)).toContain('example');
  });
});
