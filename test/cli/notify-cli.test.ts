import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

/** `leadscan notify status` and `leadscan notify test` as real processes against a real SMTP server on loopback. */
describeEachBackend('leadscan notify (spawned)', (backend) => {
  let db: TestDatabase;
  let base: Record<string, string>;
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    base = { DATABASE_URL: db.url, APP_SECRET: crypto.randomBytes(32).toString('hex'), PUBLIC_BASE_URL: 'https://leads.example.com' };
    await cliJson(['migrate'], base);
  });
  afterEach(async () => {
    await sink?.stop();
    sink = undefined;
  });
  afterAll(async () => {
    await db.drop();
  });

  it('with email off: status says so; test is refused with what to set', async () => {
    const status = await cliJson<{ email: { on: boolean } }>(['notify', 'status'], base);
    expect(status.email).toEqual({ on: false, server: null, from: null });
    expect((await runCli(['notify', 'status'], base)).stdout).toContain('email:        off (set SMTP_URL and MAIL_FROM');
    const refused = await runCli(['notify', 'test', '--to', 'olga@example.com', '--json'], base);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'email_not_configured' });
    expect(refused.stderr).toContain('set SMTP_URL and MAIL_FROM');
  });

  it('test through STARTTLS with AUTH: the email arrives over TLS, signed in; status shows it as the last sent', async () => {
    sink = await startSmtpSink({ auth: { user: 'relay-user', pass: 'relay p@ss/word' }, startTls: true });
    const env = { ...base, SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <leads@example.com>' };
    const sent = await runCli(['notify', 'test', '--to', 'olga@example.com'], env);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toBe(`Sent a test email to olga@example.com through 127.0.0.1:${sink.port}.\n`);
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toMatchObject({ text: 'olga@example.com' });
    expect(mail!.from?.text).toBe('"Leadscan" <leads@example.com>');
    expect(mail!.text).toContain('leadscan notify test');
    expect(sink.sessions).toEqual([{ secure: true, user: 'relay-user' }]);
    const status = await cliJson<{ email: unknown; lastSent: unknown; waiting: number }>(['notify', 'status'], env);
    expect(status.email).toEqual({ on: true, server: `127.0.0.1:${sink.port}`, from: 'Leadscan <leads@example.com>' });
    expect(status.lastSent).toMatchObject({ purpose: 'test', to: 'olga@example.com' });
    expect(status.waiting).toBe(0);
  });

  it('a wrong SMTP password: exits 1 with the reason, never the password; status shows the failure', async () => {
    sink = await startSmtpSink({ auth: { user: 'relay-user', pass: 'the right one' }, startTls: true });
    const wrong = sink.url.replace('the%20right%20one', 'hunter2-wrong');
    expect(wrong).not.toBe(sink.url);
    const env = { ...base, SMTP_URL: wrong, MAIL_FROM: 'leads@example.com' };
    const failed = await runCli(['notify', 'test', '--to', 'olga@example.com', '--json'], env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('refused the user name or password');
    expect(`${failed.stdout}${failed.stderr}`).not.toContain('hunter2-wrong');
    expect(JSON.parse(failed.stdout)).toMatchObject({ code: 'email_not_sent' });
    const status = await cliJson<{ lastFailure: { purpose: string; error: string; gaveUp: boolean } }>(['notify', 'status'], env);
    expect(status.lastFailure).toMatchObject({ purpose: 'test', gaveUp: true });
    expect(status.lastFailure.error).not.toContain('hunter2-wrong');
    expect(sink.messages).toHaveLength(0);
  });

  it('refuses a --to that is not an email address', async () => {
    sink = await startSmtpSink();
    const refused = await runCli(['notify', 'test', '--to', 'not-an-address'], { ...base, SMTP_URL: sink.url, MAIL_FROM: 'leads@example.com' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not an email address');
  });
});
