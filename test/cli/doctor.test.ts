import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRuntime } from '../../src/runtime.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestDatabase, describeEachBackend, tempDir, type TestDatabase } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

interface Report {
  ok: boolean;
  checks: { check: string; ok: boolean; detail: string }[];
}

/** `leadscan doctor` as a real process beside a real server (in this process), a real SMTP sink and a TLS front. */
describeEachBackend('leadscan doctor (spawned)', (backend) => {
  let db: TestDatabase;
  let base: Record<string, string>;
  let dataDir: string;
  let server: RunningServer | undefined;
  let sink: SmtpSink | undefined;
  let front: https.Server | undefined;
  let caFile: string;
  let tls: { key: string; cert: string };

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    dataDir = tempDir('leadscan-doctor-');
    // A certificate for 127.0.0.1, trusted by the spawned CLI through NODE_EXTRA_CA_CERTS.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dataDir, 'key.pem'),
        '-out',
        path.join(dataDir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = {
      key: fs.readFileSync(path.join(dataDir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dataDir, 'cert.pem'), 'utf8'),
    };
    caFile = path.join(dataDir, 'cert.pem');
    base = {
      DATABASE_URL: db.url,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      METRICS_TOKEN: 'a-metrics-token-of-enough-length',
    };
    await cliJson(['migrate'], base);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await sink?.stop();
    sink = undefined;
    await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
    front = undefined;
  });
  afterAll(async () => {
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function serve(extra: Record<string, string>): Promise<RunningServer> {
    server = await startServer(
      await openRuntime(loadConfig({ ...base, ...extra, HOST: '127.0.0.1', PORT: '0' }), { mayCreate: true }),
    );
    return server;
  }

  /** An https front on loopback passing requests to the server, as a TLS proxy would. */
  async function httpsFront(target: string): Promise<string> {
    front = https.createServer(tls, (req, res) => {
      void fetch(new URL(req.url ?? '/', target)).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => front!.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  }

  async function doctor(
    env: Record<string, string>,
    args: string[] = [],
  ): Promise<{ code: number; report: Report; text: string }> {
    const json = await runCli(['doctor', '--json', ...args], { NODE_EXTRA_CA_CERTS: caFile, ...env });
    const text = await runCli(['doctor', ...args], { NODE_EXTRA_CA_CERTS: caFile, ...env });
    expect(text.code).toBe(json.code);
    return { code: json.code, report: JSON.parse(json.stdout) as Report, text: text.stdout };
  }
  const check = (report: Report, name: string) => report.checks.find((c) => c.check === name)!;

  it('a healthy deployment: every check ok, exit 0', async () => {
    sink = await startSmtpSink();
    const running = await serve({ SMTP_URL: sink.url, MAIL_FROM: 'leads@example.com' });
    const publicUrl = await httpsFront(running.url);
    const backups = tempDir('leadscan-backups-');
    const stamp = new Date()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replaceAll(':', '');
    fs.writeFileSync(path.join(backups, `leadscan-${stamp}.sqlite`), '');
    // The running server sends a test email, so the last send is recorded as sent.
    expect((await runCli(['notify', 'test', '--to', 'olga@example.com'], base)).code).toBe(0);
    const { code, report, text } = await doctor({ ...base, PUBLIC_BASE_URL: publicUrl }, ['--backups', backups]);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.check)).toEqual([
      'database',
      'migrations',
      'server',
      'email',
      'trust proxy',
      'public url',
      'https',
      'backups',
      'disk',
      'app secret',
      'pdf renderer',
      'metrics token',
    ]);
    expect(check(report, 'pdf renderer').detail).toMatch(/^a test document rendered in \d+ ms \(\d+ bytes/);
    expect(check(report, 'email').detail).toContain(`through 127.0.0.1:${sink.port}; last send: sent`);
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    expect(text).toContain('Nothing to fix.');
    fs.rmSync(backups, { recursive: true, force: true });
  });

  it('no server, no PUBLIC_BASE_URL, no backups, weak secret, no metrics token, too little disk: each said, exit 1', async () => {
    // A server that ran and stopped.
    await (await serve({})).close();
    server = undefined;
    const backups = tempDir('leadscan-backups-');
    fs.writeFileSync(path.join(backups, 'leadscan-2020-01-01T000000Z.sqlite'), '');
    const env = { DATABASE_URL: db.url, APP_SECRET: 'a'.repeat(40), DATA_DIR: dataDir };
    const { code, report, text } = await doctor(env, ['--backups', backups, '--min-free', '100000000']);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(check(report, 'database').ok).toBe(true);
    expect(check(report, 'migrations').ok).toBe(true);
    expect(check(report, 'server')).toMatchObject({ ok: false });
    expect(check(report, 'server').detail).toMatch(/it stopped at .*; start leadscan serve/);
    expect(check(report, 'public url')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('PUBLIC_BASE_URL is not set'),
    });
    expect(check(report, 'backups')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('leadscan-2020-01-01T000000Z.sqlite'),
    });
    expect(check(report, 'disk')).toMatchObject({ ok: false, detail: expect.stringContaining('only') });
    expect(check(report, 'app secret')).toMatchObject({ ok: false });
    expect(check(report, 'metrics token')).toMatchObject({ ok: false });
    expect(text).toMatch(/^FIX {2}metrics token/m);
    fs.rmSync(backups, { recursive: true, force: true });
    const empty = await doctor(env, ['--backups', tempDir('leadscan-backups-')]);
    expect(check(empty.report, 'backups')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('No leadscan-….sqlite backup'),
    });
  });

  it('a server with email off, plain http, a public address that does not answer, and TRUST_PROXY with no proxy', async () => {
    const running = await serve({ TRUST_PROXY: '127.0.0.1' });
    const off = await doctor({ ...base, PUBLIC_BASE_URL: running.url });
    expect(check(off.report, 'server').ok).toBe(true);
    expect(check(off.report, 'email')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('off on the server'),
    });
    expect(check(off.report, 'public url').ok).toBe(true);
    expect(check(off.report, 'https')).toMatchObject({ ok: false, detail: expect.stringContaining('plain http') });
    expect(check(off.report, 'trust proxy')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('unset TRUST_PROXY'),
    });
    const silent = await doctor({ ...base, PUBLIC_BASE_URL: 'http://127.0.0.1:9' }, ['--timeout', '2']);
    expect(check(silent.report, 'public url')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('does not answer from this machine'),
    });
  });

  it('a proxied address with the server not trusting it, and a failed last send', async () => {
    sink = await startSmtpSink({ auth: { user: 'u', pass: 'right' }, startTls: true });
    await serve({ SMTP_URL: sink.url.replace('right', 'wrong'), MAIL_FROM: 'leads@example.com' });
    expect((await runCli(['notify', 'test', '--to', 'olga@example.com'], base)).code).toBe(1);
    const { report } = await doctor({ ...base, PUBLIC_BASE_URL: 'https://leads.invalid' }, ['--timeout', '2']);
    expect(check(report, 'email')).toMatchObject({ ok: false, detail: expect.stringContaining('last send: failed') });
    expect(check(report, 'trust proxy')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('without TRUST_PROXY'),
    });
    expect(check(report, 'public url').ok).toBe(false);
  });

  it('an unreachable database and one behind the code are reported', async () => {
    const missing = await doctor({
      ...base,
      DATABASE_URL: backend === 'sqlite' ? path.join(dataDir, 'nowhere.db') : 'postgres://postgres@127.0.0.1:1/none',
    });
    expect(missing.code).toBe(1);
    expect(check(missing.report, 'database').ok).toBe(false);
    const fresh = await createTestDatabase(backend);
    try {
      // The database exists and answers, but nothing was migrated.
      const lagging = await doctor({ ...base, DATABASE_URL: fresh.url });
      if (backend === 'sqlite') expect(check(lagging.report, 'database').ok).toBe(false);
      else
        expect(check(lagging.report, 'migrations')).toMatchObject({
          ok: false,
          detail: expect.stringContaining('run leadscan migrate'),
        });
    } finally {
      await fresh.drop();
    }
  });

  it('a generated app-secret file readable by others is reported', async () => {
    const dir = tempDir('leadscan-secret-');
    fs.writeFileSync(path.join(dir, 'app-secret'), `${crypto.randomBytes(48).toString('base64url')}\n`, {
      mode: 0o644,
    });
    fs.chmodSync(path.join(dir, 'app-secret'), 0o644);
    const open = await doctor({ DATABASE_URL: db.url, DATA_DIR: dir });
    expect(check(open.report, 'app secret')).toMatchObject({ ok: false, detail: expect.stringContaining('chmod 600') });
    fs.chmodSync(path.join(dir, 'app-secret'), 0o600);
    const closed = await doctor({ DATABASE_URL: db.url, DATA_DIR: dir });
    expect(check(closed.report, 'app secret')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('generated'),
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
