import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { ONE_TIME_LINK_PREFIXES, urlForLog } from '../../src/http/request-log.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { listenWithLog, type LoggedApp } from './log-capture.js';

/** Every registered route, from `printRoutes` (its tree joins prefixes by plain concatenation), with its methods. */
function registeredRoutes(app: App): Array<{ path: string; methods: string[] }> {
  const routes: Array<{ path: string; methods: string[] }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    routes.push({ path: stack.join(''), methods: match[3]!.split(', ') });
  }
  return routes;
}

/**
 * Routes whose token is not secret: intake and hosted-form tokens are printed in every page that embeds the form
 * (docs/security.md, Logs). Every other route that takes a token is a one-time link.
 */
const PUBLIC_TOKEN_ROUTES = ['/api/intake/:token', '/f/:token'];

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
    const refused = await fetch(`${logged.baseUrl}/api/scan/upload?key=${uploadKey}`, {
      method: 'POST',
      body: '{"rooms":[]}',
    });
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

/** Issue 33, finding 6: no one-time token in a path reaches the log, for every route that takes one. */
describeEachBackend('one-time links in request logs (issue 33)', (backend) => {
  let world: TestWorld | undefined;
  let logged: LoggedApp | undefined;
  afterEach(async () => {
    await logged?.close();
    logged = undefined;
    await world?.close();
    world = undefined;
  });

  it('walks every registered route with a token and finds none of its tokens in the log, nor a quote link’s', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { workspaceId } = await world.seed();
    logged = await listenWithLog(world, 'debug');
    const routes = registeredRoutes(logged.app);
    // The walk sees the routes (a broken parse would pass vacuously).
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/login', '/account/email', '/w/:workspaceId/members']),
    );
    const withToken = routes.filter((r) => /\/:token(\/|$)/.test(r.path));
    const secret = withToken.filter((r) => !PUBLIC_TOKEN_ROUTES.includes(r.path));
    expect(secret.map((r) => r.path)).toEqual(expect.arrayContaining(['/confirm-email/:token', '/setup/:token']));
    // A new route with a token is either public (listed above, with its reason) or covered by the one rule.
    for (const route of secret)
      expect(
        ONE_TIME_LINK_PREFIXES.some((prefix) => route.path.startsWith(`/${prefix}/`)),
        route.path,
      ).toBe(true);

    // A real setup link too, so its page and its post are logged the way a working link is.
    const invited = await createUser({ ctx: world.ctx, input: { email: 'nina@new.test', workspaceId } });
    const realToken = new URL(invited.setupUrl!).pathname.split('/').pop()!;
    const tokens: string[] = [realToken];
    const requests: Array<{ method: string; path: string }> = [];
    for (const route of [...secret, { path: '/q/:token', methods: ['GET', 'POST'] }]) {
      for (const method of route.methods.filter((m) => m === 'GET' || m === 'POST')) {
        const token = crypto.randomBytes(32).toString('base64url');
        tokens.push(token);
        requests.push({ method, path: route.path.replace(':token', token) });
        // Also as a client may send it: another case, doubled slashes, a further segment, a query string.
        const prefix = route.path.split('/')[1]!.toUpperCase();
        requests.push({ method, path: `//${prefix}//${token}/more?next=${token}` });
        // Or percent-encoded, which the router decodes (`/%71/{token}` is `/q/{token}`).
        const encoded = crypto.randomBytes(32).toString('base64url');
        tokens.push(encoded);
        const first = `%${prefix.toLowerCase().charCodeAt(0).toString(16)}`;
        requests.push({ method, path: `/${first}${prefix.slice(1).toLowerCase()}/${encoded}` });
        requests.push({ method, path: `/${prefix.toLowerCase()}%2F${encoded}` });
      }
    }
    requests.push({ method: 'GET', path: `/setup/${realToken}` }, { method: 'POST', path: `/setup/${realToken}` });
    for (const { method, path } of requests) {
      const res = await fetch(`${logged.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://leadscan.test' },
        ...(method === 'POST' ? { body: 'password=long+enough+pw&repeat=long+enough+pw' } : {}),
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    expect(
      (
        await world.store.db
          .selectFrom('users')
          .select('password_hash')
          .where('email_key', '=', 'nina@new.test')
          .executeTakeFirstOrThrow()
      ).password_hash,
    ).not.toBeNull();
    await logged.close();

    const text = logged.text();
    expect(logged.lines.length).toBeGreaterThan(requests.length);
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).toContain('/confirm-email/[redacted]');
    expect(text).toContain('/q/[redacted]');
  });
});

describe('urlForLog', () => {
  it('redacts a one-time link however its path is spelled, as the router may decode it', () => {
    const spellings = ['/q/T', '/%71/T', '/%51/T', '/Q/T', '//q//T', '/q%2FT', '/./q/T', '/x/../q/T', '/../q/T'];
    for (const url of spellings) expect(urlForLog(url), url).toMatch(/^\/+q\/+\[redacted\]$/i);
    expect(urlForLog('/s%65tup/T?next=T')).toBe('/setup/[redacted]?[redacted]');
    expect(urlForLog('/confirm-email%2FT')).toBe('/confirm-email/[redacted]');
    // Paths of no one-time link stay as sent (query strings never).
    expect(urlForLog('/api/intake/123?x=1')).toBe('/api/intake/123?[redacted]');
    expect(urlForLog('/quotes/T')).toBe('/quotes/T');
  });
});
