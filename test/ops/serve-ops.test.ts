import crypto from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { serveProcess } from '../multi-instance/serve-process.js';

describe('leadscan serve: logs, the remembered base URL, the intake log on shutdown (process)', () => {
  it('pretty logs keep the banner readable and hold no personal data; the CLI links and stats follow the server', async () => {
    const env = {
      DATABASE_URL: path.join(tempDir(), 'leadscan.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'pretty',
    };
    const server = await serveProcess([], env);
    const port = new URL(server.url).port;
    const intake = /Intake URL:\s+(\S+)/.exec(server.output())?.[1];
    expect(intake).toMatch(new RegExp(`^http://localhost:${port}/api/intake/`));
    const res = await fetch(`${server.url}/api/intake/${intake!.split('/').pop()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Private', email: 'ada.private@example.com' }),
    });
    expect(res.status).toBe(200);
    const refused = await fetch(`${server.url}/api/intake/${intake!.split('/').pop()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notes: 'no contact' }),
    });
    expect(refused.status).toBe(400);
    expect(await server.stop()).toBe(0);

    const out = server.output();
    expect(out).not.toMatch(/^\{"level"/m);
    expect(out).not.toContain('incoming request');
    expect(out).not.toContain('Ada Private');
    expect(out).not.toContain('ada.private@example.com');
    expect(out).toMatch(/^\d\d:\d\d:\d\d INFO {2}request refused reqId=\S+ code=missing_contact$/m);

    // Without PUBLIC_BASE_URL the CLI prints the links the server served with (its port, not 3000).
    const cliEnv = { DATABASE_URL: env.DATABASE_URL, APP_SECRET: env.APP_SECRET };
    const source = await cliJson<{ id: string; formUrl: string }>(
      ['source', 'create', '--workspace', 'Default', '--pipeline', 'Sales', '--name', 'Landing'],
      cliEnv,
    );
    expect(source.formUrl).toMatch(new RegExp(`^http://localhost:${port}/f/`));
    // The shutdown flushed the intake log.
    const stats = await cliJson<{ days: Array<{ accepted: number; refused: number }> }>(
      ['source', 'stats', intake!.split('/').pop()!],
      cliEnv,
    );
    expect(stats.days).toMatchObject([{ accepted: 1, refused: 1 }]);
  }, 120_000);

  it('JSON logs: one JSON object a line, requests without the client address', async () => {
    const server = await serveProcess([], {
      DATABASE_URL: path.join(tempDir(), 'leadscan.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const records = lines.map((line) => JSON.parse(line) as { msg?: string; req?: Record<string, unknown> });
    const incoming = records.find((r) => r.msg === 'incoming request');
    expect(incoming?.req).toEqual({ method: 'GET', url: '/healthz', id: expect.any(String) });
    expect(server.output()).not.toContain('remoteAddress');
  }, 60_000);
});
