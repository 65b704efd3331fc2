import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { BotCheckProvider } from '../../src/config.js';

/**
 * What the fake provider does with the next verifications:
 * - pass: success (reCAPTCHA answers with `score`, default 0.9)
 * - fail: success false with `invalid-input-response`
 * - error: HTTP 500
 * - slow: holds the request open until the fake is closed (longer than any test timeout)
 * - down is not a mode: use `downUrl`, a loopback port with nothing listening.
 */
export type FakeMode = 'pass' | 'fail' | 'error' | 'slow' | 'secret-error';

export interface SiteverifyCall {
  provider: string;
  secret: string | null;
  response: string | null;
  remoteip: string | null;
  contentType: string | undefined;
}

export interface FakeSiteverify {
  /** The base URL; `url(provider)` is what the *_VERIFY_URL variables point at. */
  baseUrl: string;
  url(provider: BotCheckProvider): string;
  /** TURNSTILE_VERIFY_URL, HCAPTCHA_VERIFY_URL, RECAPTCHA_VERIFY_URL for this fake. */
  env(): Record<string, string>;
  /** The same variables pointing at a closed loopback port (provider down). */
  downEnv(): Record<string, string>;
  mode: FakeMode;
  /** reCAPTCHA score in `pass` (and `fail`) answers. */
  score: number;
  calls: SiteverifyCall[];
  close(): Promise<void>;
}

const VARS: Record<BotCheckProvider, string> = {
  turnstile: 'TURNSTILE_VERIFY_URL',
  hcaptcha: 'HCAPTCHA_VERIFY_URL',
  recaptcha: 'RECAPTCHA_VERIFY_URL',
};

/** A port that was just free: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A controllable siteverify server for all three providers on one loopback port (`/turnstile`, …). */
export async function startFakeSiteverify(): Promise<FakeSiteverify> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const provider = (req.url ?? '/').split('?')[0]!.replace(/^\//, '');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      fake.calls.push({
        provider,
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
        contentType: req.headers['content-type'],
      });
      if (fake.mode === 'slow') return; // never answers; close() destroys the socket
      if (fake.mode === 'error') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
        return;
      }
      const now = new Date().toISOString();
      const body: Record<string, unknown> =
        fake.mode === 'pass'
          ? { success: true, challenge_ts: now, hostname: 'leadscan.test', 'error-codes': [] }
          : {
              success: false,
              'error-codes': [fake.mode === 'secret-error' ? 'invalid-input-secret' : 'invalid-input-response'],
            };
      if (provider === 'recaptcha' && fake.mode === 'pass')
        Object.assign(body, { score: fake.score, action: 'submit' });
      if (provider === 'turnstile' && fake.mode === 'pass') Object.assign(body, { action: '', cdata: '' });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const downBase = `http://127.0.0.1:${await closedPort()}`;
  const envFor = (base: string) =>
    Object.fromEntries(Object.entries(VARS).map(([provider, variable]) => [variable, `${base}/${provider}`]));

  const fake: FakeSiteverify = {
    baseUrl,
    url: (provider) => `${baseUrl}/${provider}`,
    env: () => envFor(baseUrl),
    downEnv: () => envFor(downBase),
    mode: 'pass',
    score: 0.9,
    calls: [],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
