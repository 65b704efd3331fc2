import crypto from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LINGER_MAX_BYTES } from '../../src/http/lingering-close.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { blast } from './raw-socket.js';

const BODY_BYTES = 64 * 1024 * 1024;
/** Loopback socket buffers on both sides hold a few MiB that the server never read; the rest must not be taken. */
const MOST_A_REFUSAL_MAY_TAKE = 24 * 1024 * 1024;

describe('the Node internals the lingering close relies on', () => {
  it('Node still has socket.destroySoon, which it calls to end a Connection: close answer', () => {
    // http/lingering-close.ts replaces it per socket (and also lingers on the answer's 'finish' should Node stop
    // calling it); if this fails after a Node upgrade, check how _http_server ends a `Connection: close` response.
    expect(typeof (net.Socket.prototype as { destroySoon?: unknown }).destroySoon).toBe('function');
  });
});

/**
 * Finding 3: a refusal sent before the body is read closes the connection after the answer instead of reading
 * (and discarding) everything the client sends. The client still gets the whole answer.
 */
describeEachBackend('early refusals cost nothing (finding 3)', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  const head = (path: string, headers: Record<string, string>) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}Content-Length: ${BODY_BYTES}\r\n\r\n`;

  it('intake 400, 404 and 429, hosted form 429, scan 401 and 429 answer and close without draining a 64 MiB body', async () => {
    world = await createWorld(backend, {
      env: { ...NO_LOAD_SHEDDING, INTAKE_RATE_LIMIT: '1', SCAN_RATE_LIMIT: '1', SCAN_MAX_BYTES: String(1024 * 1024) },
    });
    const { source, uploadKey } = await world.seed();
    const baseUrl = await world.listen();
    const json = { 'Content-Type': 'application/json' };
    // Use up the one request a minute each limit allows.
    expect(
      (await fetch(`${baseUrl}/api/intake/${source.token}`, { method: 'POST', headers: json, body: '{"name":"A"}' }))
        .status,
    ).toBe(200);
    expect(
      (
        await fetch(`${baseUrl}/api/scan/upload`, {
          method: 'POST',
          headers: { ...json, 'x-scan-key': uploadKey },
          body: '{"rooms":[]}',
        })
      ).status,
    ).toBe(200);

    const cases = [
      {
        label: 'intake, malformed token',
        head: head('/api/intake/not-a-uuid', json),
        status: 400,
        code: 'malformed_token',
      },
      {
        label: 'intake, unknown token',
        head: head(`/api/intake/${crypto.randomUUID()}`, json),
        status: 404,
        code: 'intake_unavailable',
      },
      {
        label: 'intake, rate limited',
        head: head(`/api/intake/${source.token}`, json),
        status: 429,
        code: 'rate_limited',
      },
      {
        label: 'hosted form, rate limited',
        head: head(`/f/${source.token}`, { 'Content-Type': 'application/x-www-form-urlencoded' }),
        status: 429,
        code: null,
      },
      { label: 'scan, no key', head: head('/api/scan/upload', json), status: 401, code: 'missing_scan_key' },
      {
        label: 'scan, rate limited',
        head: head('/api/scan/upload', { ...json, 'x-scan-key': uploadKey }),
        status: 429,
        code: 'rate_limited',
      },
    ];
    for (const c of cases) {
      const outcome = await blast(baseUrl, c.head, BODY_BYTES);
      expect(outcome.received, c.label).toMatch(new RegExp(`^HTTP/1\\.1 ${c.status} `));
      expect(outcome.received, c.label).toMatch(/\r\nconnection: close\r\n/i);
      if (c.code) expect(outcome.received, c.label).toContain(`"code":"${c.code}"`);
      expect(outcome.closedByServer, c.label).toBe(true);
      expect(outcome.sent, `${c.label}: bytes taken`).toBeLessThan(MOST_A_REFUSAL_MAY_TAKE);
    }
    const leads = await world.store.db.selectFrom('leads').select('id').execute();
    expect(leads).toHaveLength(1);
  });

  it('a body over the limit gets 413 and a closed connection, with the client still sending', async () => {
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, SCAN_MAX_BYTES: String(1024 * 1024) } });
    const { source, uploadKey } = await world.seed();
    const baseUrl = await world.listen();
    for (const [path, headers] of [
      [`/api/intake/${source.token}`, { 'Content-Type': 'application/json' }],
      ['/api/scan/upload', { 'Content-Type': 'application/json', 'x-scan-key': uploadKey }],
    ] as const) {
      // No Content-Length up front: chunked, so the limit is found while reading.
      const chunkedHead = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}Transfer-Encoding: chunked\r\n\r\n`;
      const outcome = await blast(baseUrl, `${chunkedHead}4000000\r\n`, BODY_BYTES);
      expect(outcome.received, path).toMatch(/^HTTP\/1\.1 413 /);
      expect(outcome.received, path).toContain('"code":"body_too_large"');
      expect(outcome.closedByServer, path).toBe(true);
      expect(outcome.sent, path).toBeLessThan(MOST_A_REFUSAL_MAY_TAKE);
    }
    expect(LINGER_MAX_BYTES).toBeLessThan(MOST_A_REFUSAL_MAY_TAKE);
  });
});
