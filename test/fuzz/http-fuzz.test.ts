import crypto from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { hostileRequest, type HostileRequest } from './hostile-requests.js';

/**
 * Real HTTP against a real server on a real database: every hostile request is answered, never with a 5xx, API
 * refusals are problem+json with a code from the closed list, and the server is alive and serving afterwards.
 * `npm test` runs FUZZ_RUNS (default 1,200) cases per database; `npm run fuzz` runs many more.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Answer {
  status?: number;
  contentType?: string;
  body?: string;
  error?: string;
}

function send(baseUrl: string, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.request(
      `${baseUrl}${path}`,
      { method: 'POST', headers, agent: false, timeout: 15_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            contentType: response.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: response.statusCode, error: error.code ?? error.message }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(body);
  });
}

describeEachBackend("HTTP fuzz: hostile input is answered in the contract's words", (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let baseUrl: string;

  beforeAll(async () => {
    // Load shedding off: a busy test machine must not turn into 503s that hide (or fake) a real failure.
    world = await createWorld(backend, {
      env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_HEAP_USED_BYTES: '0', SCAN_MAX_BYTES: String(256 * 1024) },
    });
    seeded = await world.seed();
    baseUrl = await world.listen();
  });
  afterAll(async () => {
    await world?.close();
  });

  function pathOf(request: HostileRequest): { path: string; headers: Record<string, string> } {
    const headers: Record<string, string> = {};
    switch (request.target) {
      case 'intake':
        return { path: `/api/intake/${seeded.source.token}`, headers };
      case 'intake-unknown-token':
        return { path: `/api/intake/${crypto.randomUUID()}`, headers };
      case 'intake-malformed-token':
        return { path: '/api/intake/not-a-token%FF', headers };
      case 'form':
        return { path: `/f/${seeded.source.token}`, headers };
      case 'scan':
        return { path: '/api/scan/upload', headers: { 'x-scan-key': seeded.uploadKey } };
      case 'scan-no-key':
        return { path: '/api/scan/upload', headers };
      case 'scan-wrong-key':
        return {
          path: '/api/scan/upload',
          headers: { 'x-scan-key': `lsk_${crypto.randomBytes(32).toString('base64url')}` },
        };
    }
  }

  it(`answers ${RUNS} hostile requests without a 5xx and stays up`, { timeout: 60_000 + RUNS * 100 }, async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (request) => {
        const { path, headers } = pathOf(request);
        if (request.contentType !== undefined) headers['content-type'] = request.contentType;
        if (request.encoding !== undefined) headers['content-encoding'] = request.encoding;
        const answer = await send(baseUrl, path, { ...headers, ...request.extraHeaders }, request.body);
        const where = `${path} ${answer.status ?? answer.error} ${answer.body?.slice(0, 300) ?? ''}`;
        if (answer.status === undefined) {
          // Only a header block over the limit may end in a reset (the 431 is sent, then the socket closes).
          expect(request.hugeHeaders, where).toBe(true);
          return;
        }
        expect(answer.status, where).toBeLessThan(500);
        if (answer.status >= 400 && path.startsWith('/api/')) {
          expect(answer.contentType, where).toMatch(/^application\/problem\+json/);
          const problem = JSON.parse(answer.body ?? '') as { code: string; status: number; detail: string };
          expect(ERROR_CODES, where).toContain(problem.code);
          expect(problem.status, where).toBe(answer.status);
          expect(problem.detail.length, where).toBeLessThanOrEqual(500);
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
    );

    // Still alive and still doing its job.
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    const lead = await fetch(`${baseUrl}/api/intake/${seeded.source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the storm' }),
    });
    expect(lead.status).toBe(200);
    const scan = await fetch(`${baseUrl}/api/scan/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scan-key': seeded.uploadKey },
      body: '{"rooms":[{"name":"Kitchen"}]}',
    });
    expect(scan.status).toBe(200);
  });
});
