import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { listenWithLog, type LoggedApp } from './log-capture.js';

/** Finding 9: an upload key in a URL query string never reaches the log. */
describeEachBackend('request logs (finding 9)', (backend) => {
  let world: TestWorld;
  let logged: LoggedApp | undefined;
  afterEach(async () => {
    await logged?.close();
    logged = undefined;
    await world?.close();
  });

  it('redacts query strings, and never logs the upload key or a bot-check token', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source, uploadKey } = await world.seed();
    logged = await listenWithLog(world, 'info');
    const scan = await fetch(`${logged.baseUrl}/api/scan/upload?x-scan-key=${uploadKey}&key=${uploadKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scan-key': uploadKey },
      body: '{"rooms":[]}',
    });
    expect(scan.status).toBe(200);
    const refused = await fetch(`${logged.baseUrl}/api/scan/upload?key=${uploadKey}`, { method: 'POST', body: '{"rooms":[]}' });
    expect(refused.status).toBe(401);
    const intake = await fetch(`${logged.baseUrl}/api/intake/${source.token}?botCheckToken=secret-widget-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada"}',
    });
    expect(intake.status).toBe(200);
    const token = 'Qm9iIHNldHVwIHRva2VuIHRoYXQgbXVzdCBub3QgbG9n';
    expect((await fetch(`${logged.baseUrl}/setup/${token}`)).status).toBe(410);
    const setup = await fetch(`${logged.baseUrl}/setup/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=long+enough+pw&repeat=long+enough+pw',
    });
    expect(setup.status).toBe(410);
    await logged.close();

    const text = logged.text();
    expect(text).not.toContain(uploadKey);
    expect(text).not.toContain(uploadKey.slice(4, 24));
    expect(text).not.toContain('secret-widget-token');
    expect(text).not.toContain(token);
    expect(text).toContain('/setup/[redacted]');
    const urls = logged.lines.map((line) => (line.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toEqual(
      expect.arrayContaining(['/api/scan/upload?[redacted]', `/api/intake/${source.token}?[redacted]`]),
    );
  });
});
