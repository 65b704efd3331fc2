import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';

/** Sends raw bytes and collects the whole answer until the server closes (or `waitMs` passes). */
function rawExchange(baseUrl: string, request: string | Buffer, waitMs = 5000): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? done() : reject(error),
    );
  });
}

function problemOf(answer: string): { status: number; headers: string; body: Record<string, unknown> } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) as Record<string, unknown> };
}

/**
 * Finding 6: framework refusals answer in the contract's words (problem+json with a code, a bounded detail),
 * and the hosted form answers an unreadable post as the intake does, not as "a problem on our side".
 */
describeEachBackend("framework refusals in the contract's words (finding 6)", (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  it('the hosted form answers a malformed Content-Type with 400 "could not be read", like the intake', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source } = await world.seed();
    const app = await world.app();
    for (const contentType of ['foo', 'text/', 'application/json; charset', `x/${'y'.repeat(8000)}`, 'image/png']) {
      const form = await app.inject({
        method: 'POST',
        url: `/f/${source.token}`,
        headers: { 'content-type': contentType },
        payload: 'name=Ada',
      });
      expect(form.statusCode, contentType.slice(0, 30)).toBe(400);
      expect(form.body).toContain('The form could not be read');
      expect(form.body).not.toContain('problem on our side');
      const api = await app.inject({
        method: 'POST',
        url: `/api/intake/${source.token}`,
        headers: { 'content-type': contentType },
        payload: 'name=Ada',
      });
      expect(api.statusCode, contentType.slice(0, 30)).toBe(400);
      expect(api.json()).toMatchObject({ code: 'unreadable_body' });
    }
  });

  it('never echoes an 8 KB header back in full: details are bounded', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source, uploadKey } = await world.seed();
    const app = await world.app();
    const huge = `application/${'x'.repeat(8 * 1024)}`;
    const api = await app.inject({
      method: 'POST',
      url: `/api/intake/${source.token}`,
      headers: { 'content-type': huge },
      payload: '{}',
    });
    expect(api.statusCode).toBe(400);
    expect(api.json<{ detail: string }>().detail.length).toBeLessThan(300);
    const charset = await app.inject({
      method: 'POST',
      url: `/api/intake/${source.token}`,
      headers: { 'content-type': `application/json; charset=${'k'.repeat(8000)}` },
      payload: '{}',
    });
    expect(charset.json<{ detail: string }>().detail.length).toBeLessThan(300);
    const scan = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: {
        'content-type': 'application/json',
        'x-scan-key': uploadKey,
        'content-encoding': `z${'z'.repeat(8000)}`,
      },
      payload: '{"rooms":[]}',
    });
    expect(scan.statusCode).toBe(415);
    expect(scan.body.length).toBeLessThan(1000);
  });

  it('answers a slowloris client with 408 problem+json', async () => {
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, HEADERS_TIMEOUT_MS: '400' } });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    // Half the headers, then nothing: the headers timeout fires.
    const answer = await rawExchange(
      baseUrl,
      `POST /api/intake/${source.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty`,
    );
    const { status, headers, body } = problemOf(answer);
    expect(status).toBe(408);
    expect(headers).toMatch(/content-type: application\/problem\+json/i);
    expect(body).toMatchObject({ ok: false, status: 408, code: 'request_timeout', requestId: expect.any(String) });
    expect(headers).toContain(`x-request-id: ${String(body.requestId)}`);
  });

  it('answers headers over the limit with 431, a URL over 8 KiB with 414, and broken HTTP with 400, all problem+json', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    const big = problemOf(
      await rawExchange(
        baseUrl,
        `POST /api/intake/${source.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: ${'h'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(big.status).toBe(431);
    expect(big.body).toMatchObject({ code: 'headers_too_large', status: 431 });

    const long = await fetch(`${baseUrl}/api/intake/${source.token}?pad=${'p'.repeat(9000)}`, {
      method: 'POST',
      body: '{"name":"A"}',
    });
    expect(long.status).toBe(414);
    expect(long.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await long.json()).toMatchObject({ code: 'uri_too_long' });

    const broken = problemOf(await rawExchange(baseUrl, 'HELLO / THERE\r\n\r\n'));
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'invalid_request' });
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});
