import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { listenWithLog, type LoggedApp } from './log-capture.js';

/** Sends the headers and part of the body, then resets the connection (what a phone losing its signal does). */
function hangUpMidBody(baseUrl: string, head: string, partialBody: string): Promise<void> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(head + partialBody, () => setTimeout(() => socket.resetAndDestroy(), 50));
    });
    socket.on('close', () => resolve());
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
  });
}

/** Finding 4: a client hanging up mid-body is logged as what it is, at info, and never as a database outage. */
describeEachBackend('client aborts (finding 4)', (backend) => {
  let world: TestWorld;
  let logged: LoggedApp | undefined;
  afterEach(async () => {
    await logged?.close();
    logged = undefined;
    await world?.close();
  });

  it('is logged as client_aborted at info level on the intake, the hosted form and the scan upload', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source, uploadKey } = await world.seed();
    logged = await listenWithLog(world);
    const head = (path: string, extra = '') =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: 5000\r\n\r\n`;
    await hangUpMidBody(logged.baseUrl, head(`/api/intake/${source.token}`), '{"name":"Ada","notes":"');
    await hangUpMidBody(logged.baseUrl, head(`/f/${source.token}`), '{"name":"Ada","notes":"');
    await hangUpMidBody(
      logged.baseUrl,
      head('/api/scan/upload', `x-scan-key: ${uploadKey}\r\n`),
      '{"rooms":[{"name":"Kit',
    );

    await expect
      .poll(() => logged!.lines.filter((line) => line.code === 'client_aborted').length, { timeout: 5000 })
      .toBe(3);
    for (const line of logged.lines.filter((l) => l.code === 'client_aborted')) expect(line.level).toBe(30);
    // Nothing at error level, and nothing that says the database is away.
    expect(logged.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(logged.text()).not.toContain('service_unavailable');
    // The server is fine afterwards.
    expect((await fetch(`${logged.baseUrl}/healthz`)).status).toBe(200);
    expect(await world.store.db.selectFrom('leads').select('id').execute()).toEqual([]);
  });

  it("is client_aborted in /metrics, in the source's intake log and on admin pages, never service_unavailable", async () => {
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, METRICS_TOKEN: 'metrics-token-for-the-test' } });
    const { source, workspaceId } = await world.seed();
    logged = await listenWithLog(world);
    const head = (path: string, extra = '') =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: 5000\r\n\r\n`;
    await hangUpMidBody(logged.baseUrl, head(`/api/intake/${source.token}`), '{"name":"Ada","notes":"');
    // An admin form post cut off mid-body (no session needed: the body is read before the gate).
    const formHead = `POST /w/${workspaceId}/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n`;
    await hangUpMidBody(logged.baseUrl, formHead, 'name=Acme&timeZone=');
    await expect
      .poll(() => logged!.lines.filter((line) => line.code === 'client_aborted').length, { timeout: 5000 })
      .toBe(2);
    expect(logged.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);

    const metrics = await fetch(`${logged.baseUrl}/metrics`, {
      headers: { authorization: 'Bearer metrics-token-for-the-test' },
    });
    const text = await metrics.text();
    expect(text).toMatch(/leadscan_leads_total\{outcome="refused",code="client_aborted"\} 1/);
    expect(text).not.toContain('service_unavailable');
    await logged.app.intakeLog.flush();
    const codes = await world.store.db
      .selectFrom('intake_log')
      .select(['code', 'count'])
      .where('source_id', '=', source.id)
      .execute();
    expect(codes.map((c) => [c.code, Number(c.count)])).toEqual([['client_aborted', 1]]);
  });
});
