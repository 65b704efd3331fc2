import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

interface RawOutcome {
  /** What the server sent before closing. */
  received: string;
  /** How many bytes we had sent when the server closed the connection. */
  sent: number;
  closedByServer: boolean;
}

/**
 * Sends `payload` over a raw socket one slice at a time, `everyMs` apart, and stops when the server closes the
 * connection (or when everything is sent and `waitForCloseMs` passes with the socket still open).
 */
function trickle(
  baseUrl: string,
  payload: Buffer,
  opts: { sliceBytes: number; everyMs: number; firstSliceBytes?: number; waitForCloseMs?: number },
) {
  const { port } = new URL(baseUrl);
  return new Promise<RawOutcome>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(chunks).toString('latin1'), sent, closedByServer });
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true);
      else reject(error);
    });
    const step = () => {
      if (settled) return;
      if (sent >= payload.length) {
        timer = setTimeout(() => finish(false), opts.waitForCloseMs ?? 5000);
        return;
      }
      const slice = payload.subarray(
        sent,
        sent + (sent === 0 ? (opts.firstSliceBytes ?? opts.sliceBytes) : opts.sliceBytes),
      );
      sent += slice.length;
      socket.write(slice);
      timer = setTimeout(step, opts.everyMs);
    };
    socket.on('connect', step);
  });
}

describeEachBackend('slow and heavy clients', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  const leadCount = async () =>
    Number(
      (
        await world.store.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('cuts off a client that sends its headers byte by byte (slowloris) with 408, and keeps serving others', async () => {
    world = await createWorld(backend, { env: { HEADERS_TIMEOUT_MS: '600' } });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    const headers = Buffer.from(
      `POST /api/intake/${source.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `X-Padding: ${'x'.repeat(400)}\r\nContent-Length: 16\r\n\r\n{"name":"Slowy"}`,
    );
    const slow = trickle(baseUrl, headers, { sliceBytes: 1, everyMs: 25 });
    // While the slow client dribbles, a normal request is answered.
    const healthy = await fetch(`${baseUrl}/healthz`);
    expect(healthy.status).toBe(200);
    const outcome = await slow;
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.sent).toBeLessThan(headers.length);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
    expect(await leadCount()).toBe(0);
  });

  it('closes a connection that stalls mid-body for CONNECTION_TIMEOUT_MS', async () => {
    world = await createWorld(backend, { env: { CONNECTION_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '500' } });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    const request = Buffer.from(
      `POST /api/intake/${source.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"name":',
    );
    // Headers and the start of the body in one go, then silence.
    const outcome = await trickle(baseUrl, request, { sliceBytes: request.length, everyMs: 0, waitForCloseMs: 10_000 });
    expect(outcome.closedByServer).toBe(true);
    expect(await leadCount()).toBe(0);
  });

  it('answers 408 to a body trickled slower than REQUEST_TIMEOUT_MS allows', async () => {
    world = await createWorld(backend, { env: { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '500' } });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    const body = `{"name":"Trickle","notes":"${'n'.repeat(400)}"}`;
    const request = Buffer.from(
      `POST /api/intake/${source.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    // The headers arrive at once (well within HEADERS_TIMEOUT_MS); the body then comes 4 bytes every 20 ms, which
    // keeps the socket busy (no idle timeout) but would take about 2 s in all.
    const started = Date.now();
    const outcome = await trickle(baseUrl, Buffer.concat([request, Buffer.from(body)]), {
      firstSliceBytes: request.length,
      sliceBytes: 4,
      everyMs: 20,
    });
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.sent).toBeGreaterThan(request.length);
    expect(outcome.sent).toBeLessThan(request.length + body.length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
    expect(await leadCount()).toBe(0);
  });

  it('sheds a flood with 503 service_unavailable and Retry-After while /healthz keeps answering', async () => {
    // A 1-byte heap ceiling puts the process "under pressure" from the first sample on.
    world = await createWorld(backend, { env: { LOAD_SHED_HEAP_USED_BYTES: '1' } });
    const { source, uploadKey } = await world.seed();
    const app = await world.app();
    const baseUrl = await world.listen();
    await expect.poll(() => app.isUnderPressure(), { timeout: 5000, interval: 100 }).toBe(true);

    const flood = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        i % 2 === 0
          ? fetch(`${baseUrl}/api/intake/${source.token}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ name: `Flood ${i}` }),
            })
          : fetch(`${baseUrl}/api/scan/upload`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-scan-key': uploadKey },
              body: JSON.stringify({ rooms: [{ name: 'Kitchen' }] }),
            }),
      ),
    );
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, database: 'writable' });

    for (const response of flood) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('10');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { code: string; status: number };
      expect(problem).toMatchObject({ code: 'service_unavailable', status: 503 });
    }
    // docs/api.md: intake answers carry CORS headers, a 503 included.
    expect(flood[0]!.headers.get('access-control-allow-origin')).toBe('*');
    expect(await leadCount()).toBe(0);
    const scans = await world.store.db.selectFrom('scans').select('id').execute();
    expect(scans).toHaveLength(0);
  });
});
