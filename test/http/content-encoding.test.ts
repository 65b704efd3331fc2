import zlib from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { storedRows } from './intake-helpers.js';
import { agedStamp } from '../helpers/form-stamp.js';

const ENCODERS = {
  gzip: (b: Buffer) => zlib.gzipSync(b),
  deflate: (b: Buffer) => zlib.deflateSync(b),
  br: (b: Buffer) => zlib.brotliCompressSync(b),
} as const;

/**
 * Finding 5: compressed bodies (what mobile SDKs send) are decoded as a stream on both endpoints, the limits hold
 * for the decoded size, the stored scan is the decoded JSON byte for byte, and an unknown coding is a 415.
 */
describeEachBackend('Content-Encoding on the write endpoints (finding 5)', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  it('reads gzip, deflate and br lead bodies on the intake and the hosted form', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    for (const [coding, encode] of Object.entries(ENCODERS)) {
      const api = await fetch(`${baseUrl}/api/intake/${source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
        body: encode(Buffer.from(JSON.stringify({ name: `Ada ${coding}`, notes: 'é'.repeat(500) }))),
      });
      expect(api.status, await api.clone().text()).toBe(200);
      const form = await fetch(`${baseUrl}/f/${source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': coding.toUpperCase() },
        body: encode(
          Buffer.from(
            `name=Form+${coding}&email=a%40example.com&formStamp=${encodeURIComponent(agedStamp(world, source.id))}`,
          ),
        ),
      });
      expect(form.status).toBe(200);
      expect(await form.text()).toMatch(/thank/i);
    }
    const { leads } = await storedRows(world, source.id);
    expect(leads.map((lead) => lead.name).sort()).toEqual(
      ['Ada br', 'Ada deflate', 'Ada gzip', 'Form br', 'Form deflate', 'Form gzip'].sort(),
    );
    expect(leads.find((lead) => lead.name === 'Ada gzip')!.notes).toBe('é'.repeat(500));
  });

  it('stores a compressed scan as its decoded JSON, byte for byte', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { uploadKey, workspaceId } = await world.seed();
    const baseUrl = await world.listen();
    const body = Buffer.from(
      '{ "rooms" : [ {"name":"Kitchen","w":1.10}, {"name":"Hall","h":1e3} ], "device":"iPhone" }\n',
    );
    for (const [coding, encode] of Object.entries(ENCODERS)) {
      const res = await fetch(`${baseUrl}/api/scan/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': coding, 'x-scan-key': uploadKey },
        body: encode(body),
      });
      expect(res.status, coding).toBe(200);
      expect(await res.json()).toEqual({ ok: true, count: 2 });
    }
    const scans = await world.store.db
      .selectFrom('scans')
      .select(['raw', 'byte_size'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(scans).toHaveLength(3);
    for (const scan of scans) expect(Buffer.from(scan.raw).equals(body)).toBe(true);
  });

  it('refuses a body that is not what its coding says with 400 unreadable_body, and stores nothing', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source, uploadKey, workspaceId } = await world.seed();
    const baseUrl = await world.listen();
    for (const coding of Object.keys(ENCODERS)) {
      const api = await fetch(`${baseUrl}/api/intake/${source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
        body: '{"name":"Plain text labelled compressed"}',
      });
      expect(api.status, coding).toBe(400);
      expect(await api.json()).toMatchObject({ code: 'unreadable_body', detail: expect.stringContaining(coding) });
      const scan = await fetch(`${baseUrl}/api/scan/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': coding, 'x-scan-key': uploadKey },
        body: '{"rooms":[{"name":"Kitchen"}]}',
      });
      expect(scan.status, coding).toBe(400);
      expect(await scan.json()).toMatchObject({ code: 'unreadable_body' });
    }
    // A truncated gzip stream is just as unreadable.
    const cut = ENCODERS.gzip(Buffer.from(JSON.stringify({ name: 'Cut short' })));
    const truncated = await fetch(`${baseUrl}/api/intake/${source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: cut.subarray(0, cut.length - 6),
    });
    expect(truncated.status).toBe(400);
    expect(await storedRows(world, source.id)).toEqual({ leads: [], quarantine: [] });
    expect(
      await world.store.db.selectFrom('scans').select('id').where('workspace_id', '=', workspaceId).execute(),
    ).toEqual([]);
  });

  it('survives a corrupt compressed body that nobody reads: a content type the intake refuses (found by the fuzz suite)', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    for (const coding of Object.keys(ENCODERS)) {
      for (const path of [`/api/intake/${source.token}`, `/f/${source.token}`]) {
        const res = await fetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'image/png', 'content-encoding': coding },
          body: Buffer.from('not compressed at all'.repeat(100)),
        });
        expect(res.status, `${coding} ${path}`).toBe(400);
      }
    }
    // The decoder's failure came after the refusal; it must not have taken the process down.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });

  it('survives a compressed body that passes the limit and then turns out corrupt', async () => {
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, SCAN_MAX_BYTES: String(64 * 1024) } });
    const { source, uploadKey } = await world.seed();
    const baseUrl = await world.listen();
    for (const [coding, encode] of Object.entries(ENCODERS)) {
      // Decodes to well over the limit, then garbage: the decoder fails after the 413 is already decided.
      const body = Buffer.concat([
        encode(Buffer.from(`{"name":"${'a'.repeat(512 * 1024)}"}`)),
        Buffer.from('\u0000garbage'.repeat(50)),
      ]);
      for (const [url, headers] of [
        [`/api/intake/${source.token}`, {}],
        ['/api/scan/upload', { 'x-scan-key': uploadKey }],
      ] as const) {
        const res = await fetch(`${baseUrl}${url}`, {
          method: 'POST',
          headers: { 'content-encoding': coding, ...headers },
          body,
        });
        expect([400, 413], `${coding} ${url}`).toContain(res.status);
      }
    }
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });

  it('answers 415 unsupported_encoding with Accept-Encoding to any other coding', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source, uploadKey } = await world.seed();
    const baseUrl = await world.listen();
    for (const coding of ['compress', 'zstd', 'gzip, br', `x-${'a'.repeat(5000)}`]) {
      for (const [url, headers] of [
        [`/api/intake/${source.token}`, {}],
        ['/api/scan/upload', { 'x-scan-key': uploadKey }],
      ] as const) {
        const res = await fetch(`${baseUrl}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': coding, ...headers },
          body: '{"name":"A","rooms":[]}',
        });
        expect(res.status, `${url} ${coding.slice(0, 20)}`).toBe(415);
        expect(res.headers.get('accept-encoding')).toBe('gzip, deflate, br');
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await res.json()) as { code: string; detail: string };
        expect(problem.code).toBe('unsupported_encoding');
        expect(problem.detail.length).toBeLessThan(300);
      }
    }
    const identity = await fetch(`${baseUrl}/api/intake/${source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: '{"name":"Identity"}',
    });
    expect(identity.status).toBe(200);
  });

  it('applies the body limits to the decoded size: a small gzip bomb is 413', async () => {
    // 16 MiB that gzip to about 16 KB: far past both limits once decoded, well under them as sent.
    const bomb = zlib.gzipSync(
      Buffer.concat([Buffer.from('{"name":"Bomb","notes":"'), Buffer.alloc(16 * 1024 * 1024, 0x61), Buffer.from('"}')]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, SCAN_MAX_BYTES: String(1024 * 1024) } });
    const { source, uploadKey, workspaceId } = await world.seed();
    const baseUrl = await world.listen();
    const api = await fetch(`${baseUrl}/api/intake/${source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: bomb,
    });
    expect(api.status).toBe(413);
    expect(await api.json()).toMatchObject({ code: 'body_too_large' });
    const scan = await fetch(`${baseUrl}/api/scan/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-scan-key': uploadKey },
      body: bomb,
    });
    expect(scan.status).toBe(413);
    // Just under the limit once decoded still goes through.
    const fits = zlib.gzipSync(
      Buffer.from(JSON.stringify({ name: 'Fits', notes: 'x'.repeat(1900), pad: 'p'.repeat(60 * 1024) })),
    );
    const ok = await fetch(`${baseUrl}/api/intake/${source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: fits,
    });
    expect(ok.status).toBe(400); // 'pad' is an extra field over 2,000 characters: read, then refused by the field rules
    expect(await ok.json()).toMatchObject({ code: 'invalid_fields' });
    expect(
      await world.store.db.selectFrom('scans').select('id').where('workspace_id', '=', workspaceId).execute(),
    ).toEqual([]);
  });
});
