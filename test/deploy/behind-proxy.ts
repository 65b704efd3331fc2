import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FormStamps } from '../../src/domain/form-stamp-key.js';
import { launchChromium } from '../browser/chromium.js';
import { rectangularRoom } from '../fixtures/roomplan.js';
import { tempDir } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { eventually, serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';
import { freePort, systemTool } from './tools.js';

/** A proxy process started from a test copy of deploy/Caddyfile or deploy/nginx.conf. */
export interface RunningProxy {
  /** The CA that signed the proxy's certificate for `localhost` (PEM). */
  ca: string;
  /** The proxy's access log file. */
  accessLog: string;
  stop(): Promise<void>;
}

export interface ProxyUnderTest {
  /** Starts the proxy on 127.0.0.1:httpsPort in front of Leadscan on 127.0.0.1:upstreamPort; `dir` is its own. */
  start(input: { dir: string; httpsPort: number; httpPort: number; upstreamPort: number }): Promise<RunningProxy>;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from a chosen loopback source address (so the client's address is not the proxy's 127.0.0.1). */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; from: string; ca?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? https.request : http.request;
    const req = send(
      target,
      {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        localAddress: options.from,
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A child process whose output is kept, for a proxy that runs in the foreground. */
export function foreground(
  command: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output(): string; exited: Promise<void> } {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, output: () => out, exited };
}

/** Waits until `url` answers over TLS trusted by `ca` (the proxy is up and its certificate is in place). */
export async function waitForProxy(url: string, ca: () => string | undefined, output: () => string): Promise<void> {
  try {
    await eventually(
      async () => {
        const pem = ca();
        if (!pem) return undefined;
        try {
          return await request(url, { from: '127.0.0.1', ca: pem });
        } catch {
          return undefined;
        }
      },
      `the proxy at ${url}`,
      20_000,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; its output:\n${output()}`);
  }
}

const LOOPBACK = {
  /** Through the proxy: the lead's IP. */
  leadClient: '127.0.0.3',
  /** Straight to Leadscan, with a forged X-Forwarded-For. */
  direct: '127.0.0.2',
  /** Through the proxy, until rate-limited. */
  busyClient: '127.0.0.4',
  /** Through the proxy, after busyClient was limited: its own counter. */
  otherClient: '127.0.0.5',
  /** Straight to Leadscan, a new forged X-Forwarded-For each time, until rate-limited. */
  forger: '127.0.0.6',
};
const FORGED = '203.0.113.7';
const INTAKE_RATE_LIMIT = 3;

const chromium = systemTool('chromium', 'apt-get install chromium');

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/**
 * Leadscan (the built dist/, a real process) behind a real proxy started from a test copy of its deploy/ config:
 * HTTPS, a 20 MB scan, the client's address only from the proxy, Secure cookies and https links, and an access log
 * without secrets.
 */
export function behindProxy(proxy: ProxyUnderTest): void {
  let server: ServeProcess;
  let running: RunningProxy;
  let base: string;
  let env: Record<string, string>;
  let token: string;
  let uploadKey: string;
  let setupUrl: string;
  const secrets: string[] = [];
  let embed: { snippet: string; sourceId: string } | undefined;
  const metricsToken = crypto.randomBytes(24).toString('hex');

  beforeAll(async () => {
    const dir = tempDir('leadscan-proxy-');
    const httpsPort = await freePort();
    const httpPort = await freePort();
    base = `https://localhost:${httpsPort}`;
    env = {
      DATABASE_URL: path.join(dir, 'data', 'leadscan.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      PUBLIC_BASE_URL: base,
      // What docs/deployment.md says for a proxy on the same machine: only its address may name the client.
      TRUST_PROXY: '127.0.0.1',
      INTAKE_RATE_LIMIT: String(INTAKE_RATE_LIMIT),
      METRICS_TOKEN: metricsToken,
    };
    server = await serveProcess([], env);
    token = /\/api\/intake\/([0-9a-f-]{36})/.exec(server.output())![1]!;
    uploadKey = /x-scan-key: (\S+)'/.exec(server.output())![1]!;
    setupUrl = /^\s+(https:\/\/\S+\/setup\/\S+)$/m.exec(server.output())![1]!;
    secrets.push(uploadKey, metricsToken, setupUrl.slice(setupUrl.lastIndexOf('/') + 1));
    const upstreamPort = Number(new URL(server.url).port);
    fs.mkdirSync(path.join(dir, 'proxy'));
    running = await proxy.start({ dir: path.join(dir, 'proxy'), httpsPort, httpPort, upstreamPort });
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await server?.stop();
  });

  const viaProxy = (urlPath: string, options: Omit<Parameters<typeof request>[1], 'ca'>) =>
    request(`${base}${urlPath}`, { ...options, ca: running.ca });
  const direct = (urlPath: string, options: Parameters<typeof request>[1]) =>
    request(`${server.url}${urlPath}`, options);
  const postLead = (send: typeof direct, from: string, extra: Record<string, string> = {}) =>
    send(`/api/intake/${token}`, {
      method: 'POST',
      from,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': FORGED, ...extra },
      body: JSON.stringify({ name: `Lead from ${from}`, email: 'ada@example.com' }),
    });
  const leadIp = async (answer: Answer) => {
    expect(answer.status).toBe(200);
    const { id } = JSON.parse(answer.body) as { id: string };
    return (await cliJson<{ clientIp: string | null }>(['leads', 'show', id], env)).clientIp;
  };

  it('prints https links in the first-start banner when PUBLIC_BASE_URL is https', () => {
    const banner = server.output();
    const links = [...banner.matchAll(/\bhttps?:\/\/[^\s'";)]+/g)].map((m) => m[0]);
    // Only the listen address is plain http; every link people are given goes through the proxy.
    expect(links.filter((link) => link !== base && !link.startsWith(`${base}/`))).toEqual([server.url]);
    expect(links).toEqual(expect.arrayContaining([`${base}/f/${token}`, `${base}/api/intake/${token}`, setupUrl]));
  });

  it("stores the client's address as the lead's IP through the proxy, and ignores a client's own X-Forwarded-For", async () => {
    expect(await leadIp(await postLead(viaProxy, LOOPBACK.leadClient))).toBe(LOOPBACK.leadClient);
  });

  it('ignores a forged X-Forwarded-For from a client that reaches Leadscan directly', async () => {
    expect(await leadIp(await postLead(direct, LOOPBACK.direct))).toBe(LOOPBACK.direct);
  });

  it('rate-limits each client behind the proxy by its own address, and a forged header does not escape the limit', async () => {
    const statuses = async (send: () => Promise<Answer>, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i += 1) out.push((await send()).status);
      return out;
    };
    const allowed = Array.from({ length: INTAKE_RATE_LIMIT }, () => 200);
    expect(await statuses(() => postLead(viaProxy, LOOPBACK.busyClient), INTAKE_RATE_LIMIT + 1)).toEqual([
      ...allowed,
      429,
    ]);
    // Not one counter for everybody behind the proxy.
    expect(await statuses(() => postLead(viaProxy, LOOPBACK.otherClient), 1)).toEqual([200]);
    let n = 0;
    const forging = () => postLead(direct, LOOPBACK.forger, { 'x-forwarded-for': `198.51.100.${++n}` });
    expect(await statuses(forging, INTAKE_RATE_LIMIT + 1)).toEqual([...allowed, 429]);
  });

  it('passes a 20 MB scan upload through to Leadscan, stored whole', async () => {
    const mesh = () => crypto.randomBytes(3_900_000).toString('base64');
    const rooms = Array.from({ length: 4 }, (_, i) => ({
      ...rectangularRoom({ width: 3 + i, length: 4, height: 2.5 }),
      name: `Room ${i}`,
      mesh: mesh(),
    }));
    const body = Buffer.from(JSON.stringify({ rooms }));
    expect(body.length).toBeGreaterThan(20_000_000);
    const answer = await viaProxy('/api/scan/upload', {
      method: 'POST',
      from: LOOPBACK.leadClient,
      headers: { 'content-type': 'application/json', 'x-scan-key': uploadKey },
      body,
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: JSON.stringify({ ok: true, count: 4 }),
    });
    const [scan] = await cliJson<Array<{ byteSize: number }>>(['scans', 'list', '--workspace', 'Default'], env);
    expect(scan!.byteSize).toBe(body.length);
  }, 60_000);

  it('gives a Secure session cookie and shows the embed snippet with https links, through the proxy', async () => {
    const setupPath = new URL(setupUrl).pathname;
    const from = LOOPBACK.leadClient;
    expect((await viaProxy(setupPath, { from, headers: { referer: setupUrl } })).status).toBe(200);
    const password = crypto.randomBytes(18).toString('base64url');
    secrets.push(password);
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', origin: base, referer: setupUrl };
    const set = await viaProxy(setupPath, {
      method: 'POST',
      from,
      headers: formHeaders,
      body: form({ password, repeat: password, email: 'owner@example.com', displayName: 'Owner' }),
    });
    expect(set.status).toBe(303);
    const signIn = await viaProxy('/login', {
      method: 'POST',
      from,
      headers: { ...formHeaders, referer: `${base}/login` },
      body: form({ email: 'owner@example.com', password }),
    });
    expect(signIn.status).toBe(303);
    const cookie = [signIn.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('leadscan_session='));
    expect(cookie).toBeDefined();
    expect(cookie!.split(';').map((part) => part.trim().toLowerCase())).toEqual(
      expect.arrayContaining(['secure', 'httponly']),
    );
    const session = cookie!.split(';')[0]!;
    secrets.push(session.slice(session.indexOf('=') + 1));

    const [workspace] = await cliJson<Array<{ id: string }>>(['workspace', 'list'], env);
    const [source] = await cliJson<Array<{ id: string; token: string }>>(
      ['source', 'list', '--workspace', 'Default'],
      env,
    );
    const page = await viaProxy(`/w/${workspace!.id}/sources/${source!.id}`, { from, headers: { cookie: session } });
    expect(page.status).toBe(200);
    const shown = /<pre id="embed-snippet"[^>]*>([^]*?)<\/pre>/.exec(page.body)?.[1] ?? '';
    const snippet = /<iframe[^]*?<\/script>/.exec(unescapeHtml(shown));
    expect(snippet?.[0]).toContain(`src="${base}/f/${source!.token}"`);
    expect(snippet?.[0]).toContain(`origin = ${JSON.stringify(base)}`);
    expect(snippet?.[0]).not.toMatch(/http:\/\//);
    embed = { snippet: snippet![0], sourceId: source!.id };
  });

  it('works embedded in a page on another site, in Chromium: the framed form posts a lead through the proxy', async (context) => {
    if (chromium.skipReason) return context.skip(chromium.skipReason);
    expect(embed, 'the embed snippet, read by the test above').toBeDefined();
    const host = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head><body><h1>Contact us</h1>\n${embed!.snippet}\n</body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/contact`;
    const browser = await launchChromium();
    try {
      // Chromium does not know the test CA (Caddy's own, or the one made for nginx); the TLS still ends at the proxy.
      const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
      await page.goto(hostUrl);
      const frame = await (await page.waitForSelector('iframe[id^="leadscan-form-"]')).contentFrame();
      expect(frame!.url()).toMatch(new RegExp(`^${base}/f/`));
      await frame!.waitForSelector('#lead-form');
      // The snippet's script told the form where it is embedded.
      await frame!.waitForFunction(`document.querySelector('#f-pageUrl')?.value === ${JSON.stringify(hostUrl)}`);
      // A person takes more than two seconds to fill the form in; the test types in milliseconds (docs/security.md).
      const stamp = new FormStamps(env.APP_SECRET!).make(embed!.sourceId, new Date(Date.now() - 10_000));
      await frame!.evaluate(`document.querySelector('input[name="formStamp"]').value = ${JSON.stringify(stamp)}`);
      await frame!.getByLabel('Name').fill('Framed Through Proxy');
      await frame!.getByLabel('Email').fill('framed@example.com');
      await frame!.getByRole('button', { name: 'Send' }).click();
      await frame!.waitForSelector('#thanks:not([hidden])');
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
    const leads = await cliJson<Array<{ id: string; name: string }>>(['leads', 'list', '--workspace', 'Default'], env);
    const framed = leads.filter((lead) => lead.name === 'Framed Through Proxy');
    expect(framed).toHaveLength(1);
    const lead = await cliJson<{ pageUrl: string | null; email: string }>(['leads', 'show', framed[0]!.id], env);
    expect({ pageUrl: lead.pageUrl, email: lead.email }).toEqual({ pageUrl: hostUrl, email: 'framed@example.com' });
  }, 60_000);

  it('keeps the secret tokens in paths, cookies, keys and bearer tokens out of its access log', async () => {
    const from = LOOPBACK.otherClient;
    const confirmToken = crypto.randomBytes(16).toString('base64url');
    const quoteToken = crypto.randomBytes(16).toString('base64url');
    const invoiceToken = crypto.randomBytes(16).toString('base64url');
    secrets.push(confirmToken, quoteToken, invoiceToken);
    await viaProxy(`/confirm-email/${confirmToken}`, { from });
    await viaProxy(`/q/${quoteToken}?print=1`, { from, headers: { referer: `${base}/q/${quoteToken}` } });
    await viaProxy(`/i/${invoiceToken}`, { from });
    // The same paths spelled otherwise: percent-encoded, in capitals, with extra slashes or dot segments.
    const spellings = [
      (t: string) => `/%71/${t}`,
      (t: string) => `/%51/${t}`,
      (t: string) => `/Q/${t}`,
      (t: string) => `//q/${t}`,
      (t: string) => `/./q/${t}`,
      (t: string) => `/%2fq/${t}`,
      (t: string) => `/q%2F${t}`,
      (t: string) => `/S%65TUP/${t}`,
      (t: string) => `/Confirm-Email/${t}`,
      (t: string) => `/%49/${t}`,
      (t: string) => `//i/${t}`,
    ];
    for (const spell of spellings) {
      const token = crypto.randomBytes(16).toString('base64url');
      secrets.push(token);
      await viaProxy(spell(token), { from });
    }
    expect((await viaProxy('/metrics', { from, headers: { authorization: `Bearer ${metricsToken}` } })).status).toBe(
      200,
    );
    // The log line of the last request is written once it is answered; wait for it rather than for a time.
    const log = await eventually(() => {
      const text = fs.existsSync(running.accessLog) ? fs.readFileSync(running.accessLog, 'utf8') : '';
      return text.includes('/metrics') ? text : undefined;
    }, 'the access log line of /metrics');
    // It logs the requests (so the check below reads a real log), with the secret part replaced.
    expect(log).toContain('/setup/REDACTED');
    expect(log).toContain('/confirm-email/REDACTED');
    expect(log).toContain('/q/REDACTED');
    expect(log).toContain('/i/REDACTED');
    expect(log).toContain(`/api/intake/${token}`);
    expect(log).toContain(LOOPBACK.busyClient);
    expect(secrets.length).toBeGreaterThanOrEqual(16);
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });
}
