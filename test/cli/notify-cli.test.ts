import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRuntime } from '../../src/runtime.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

/**
 * `leadscan notify status` and `leadscan notify test` as real processes, beside a real server (in this process)
 * and a real SMTP server on loopback. The CLI's own environment has no SMTP_URL: what it reports and sends is the
 * server's.
 */
describeEachBackend('leadscan notify (spawned)', (backend) => {
  let db: TestDatabase;
  let base: Record<string, string>;
  let sink: SmtpSink | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    base = {
      DATABASE_URL: db.url,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: 'https://leads.example.com',
    };
    await cliJson(['migrate'], base);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await sink?.stop();
    sink = undefined;
  });
  afterAll(async () => {
    await db.drop();
  });

  /** A server with the given extra environment, as `leadscan serve` runs it. */
  async function serve(extra: Record<string, string>): Promise<RunningServer> {
    const config = loadConfig({ ...base, ...extra, HOST: '127.0.0.1', PORT: '0' });
    server = await startServer(await openRuntime(config, { mayCreate: true }));
    return server;
  }

  it('with no server running: status says so; test is refused plainly', async () => {
    const status = await cliJson<{ email: unknown; serverProcess: unknown }>(['notify', 'status'], base);
    expect(status.email).toEqual({ on: false, server: null, from: null });
    expect(status.serverProcess).toBeNull();
    expect((await runCli(['notify', 'status'], base)).stdout).toContain('server:       never started');
    const refused = await runCli(['notify', 'test', '--to', 'olga@example.com', '--json'], base);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'service_unavailable' });
    expect(refused.stderr).toContain('start it with leadscan serve');
  });

  it('a server with email off: status says off on the server; test is refused with what to set', async () => {
    await serve({});
    const status = await cliJson<{ email: unknown; serverProcess: { running: boolean } }>(['notify', 'status'], base);
    expect(status.email).toEqual({ on: false, server: null, from: null });
    expect(status.serverProcess.running).toBe(true);
    const refused = await runCli(['notify', 'test', '--to', 'olga@example.com', '--json'], base);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'email_not_configured' });
    expect(refused.stderr).toContain('set SMTP_URL and MAIL_FROM');
  });

  it('a server with email on, a shell without: status shows the server’s email; test is sent by the server over STARTTLS with AUTH', async () => {
    sink = await startSmtpSink({ auth: { user: 'relay-user', pass: 'relay p@ss/word' }, startTls: true });
    await serve({ SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <leads@example.com>' });
    const before = await cliJson<{ email: unknown }>(['notify', 'status'], base);
    expect(before.email).toEqual({ on: true, server: `127.0.0.1:${sink.port}`, from: 'Leadscan <leads@example.com>' });
    const shown = (await runCli(['notify', 'status'], base)).stdout;
    expect(shown).toContain(`email:        on, through 127.0.0.1:${sink.port}`);
    expect(shown).not.toContain('relay p@ss');
    const sent = await runCli(['notify', 'test', '--to', 'olga@example.com'], base);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toBe(`The server sent a test email to olga@example.com through 127.0.0.1:${sink.port}.\n`);
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toMatchObject({ text: 'olga@example.com' });
    expect(mail!.from?.text).toBe('"Leadscan" <leads@example.com>');
    expect(mail!.text).toContain('leadscan notify test');
    expect(sink.sessions).toEqual([{ secure: true, user: 'relay-user' }]);
    const status = await cliJson<{ lastSent: unknown; waiting: number; serverProcess: { lastSend: unknown } }>(
      ['notify', 'status'],
      base,
    );
    expect(status.lastSent).toMatchObject({ purpose: 'test', to: 'olga@example.com' });
    expect(status.serverProcess.lastSend).toMatchObject({ state: 'sent', error: null });
    expect(status.waiting).toBe(0);
  });

  it('a wrong SMTP password on the server: exits 1 with the server’s reason, never the password; status shows the failure', async () => {
    sink = await startSmtpSink({ auth: { user: 'relay-user', pass: 'the right one' }, startTls: true });
    const wrong = sink.url.replace('the%20right%20one', 'hunter2-wrong');
    expect(wrong).not.toBe(sink.url);
    await serve({ SMTP_URL: wrong, MAIL_FROM: 'leads@example.com' });
    const failed = await runCli(['notify', 'test', '--to', 'olga@example.com', '--json'], base);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('refused the user name or password');
    expect(`${failed.stdout}${failed.stderr}`).not.toContain('hunter2-wrong');
    expect(JSON.parse(failed.stdout)).toMatchObject({ code: 'email_not_sent' });
    const status = await cliJson<{
      lastFailure: { purpose: string; error: string; gaveUp: boolean };
      serverProcess: { lastSend: { state: string; error: string } };
    }>(['notify', 'status'], base);
    expect(status.lastFailure).toMatchObject({ purpose: 'test', gaveUp: true });
    expect(status.lastFailure.error).not.toContain('hunter2-wrong');
    expect(status.serverProcess.lastSend.state).toBe('failed');
    expect(status.serverProcess.lastSend.error).toContain('refused the user name or password');
    expect(sink.messages).toHaveLength(0);
  });

  it('refuses a --to that is not an email address', async () => {
    const refused = await runCli(['notify', 'test', '--to', 'not-an-address'], base);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not an email address');
  });
});
