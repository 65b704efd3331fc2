import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { csrfOf } from '../../helpers/csrf-of.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describeEachBackend('admin sign-in, sessions and setup links over HTTP', (backend) => {
  let world: TestWorld;
  let app: App;
  let acme: Seeded;
  let setupPath: string;
  beforeEach(async () => {
    world = await createWorld(backend, { env: { PUBLIC_BASE_URL: 'https://leads.example.com' } });
    app = await world.app();
    acme = await world.seed('Acme');
    const created = await createUser({
      ctx: world.ctx,
      input: { email: 'olga@example.com', workspaceId: acme.workspaceId, role: 'owner' },
    });
    setupPath = new URL(created.setupUrl!).pathname;
  });
  afterEach(async () => {
    await world.close();
  });

  const setPassword = (password = PASSWORD, path = setupPath) =>
    app.inject({ method: 'POST', url: path, headers: FORM, payload: form({ password, repeat: password }) });
  const login = (email: string, password: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/login', headers: { ...FORM, ...headers }, payload: form({ email, password }) });
  const cookieOf = (res: { headers: Record<string, unknown> }) => {
    const raw = String(res.headers['set-cookie'] ?? '');
    return raw.split(';')[0]!;
  };

  it('a setup link sets the password once; sign-in sets a strict session cookie; / leads to the Leads inbox', async () => {
    const page = await app.inject({ method: 'GET', url: setupPath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('olga@example.com');
    const short = await setPassword('short');
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Use at least 10 characters');
    const set = await setPassword();
    expect(set.statusCode).toBe(303);
    // Signed in by the password just set (no second sign-in); the sign-in below starts a second session.
    expect(set.headers.location).toBe('/?notice=password-set');
    expect(String(set.headers['set-cookie'])).toMatch(/^leadscan_session=[A-Za-z0-9_-]{43};/);
    expect((await setPassword('another password')).statusCode).toBe(410);
    expect((await app.inject({ method: 'GET', url: setupPath })).statusCode).toBe(410);

    const res = await login('OLGA@example.com', PASSWORD);
    expect(res.statusCode).toBe(303);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^leadscan_session=[A-Za-z0-9_-]{43};/);
    for (const flag of ['HttpOnly', 'SameSite=Lax', 'Path=/', 'Secure']) expect(setCookie).toContain(flag);
    const home = await app.inject({ method: 'GET', url: '/', headers: { cookie: cookieOf(res) } });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe(`/w/${acme.workspaceId}/leads`);
    const signedOut = await app.inject({ method: 'GET', url: '/' });
    expect(signedOut.headers.location).toBe('/login');
    const again = await app.inject({ method: 'GET', url: '/login', headers: { cookie: cookieOf(res) } });
    expect(again.headers.location).toBe('/');

    // After sign-in the person lands where they were sent from, but never on another site.
    const deep = await app.inject({ method: 'GET', url: `/w/${acme.workspaceId}/sources` });
    expect(deep.headers.location).toBe(`/login?next=${encodeURIComponent(`/w/${acme.workspaceId}/sources`)}`);
    const back = await app.inject({
      method: 'POST',
      url: deep.headers.location!,
      headers: FORM,
      payload: form({ email: 'olga@example.com', password: PASSWORD }),
    });
    expect(back.headers.location).toBe(`/w/${acme.workspaceId}/sources`);
    const evil = await app.inject({
      method: 'POST',
      url: '/login?next=//evil.example/w/',
      headers: FORM,
      payload: form({ email: 'olga@example.com', password: PASSWORD }),
    });
    expect(evil.headers.location).toBe('/');
  });

  it('the setup page checks every rule of the password at once and shows each beside its field', async () => {
    const both = await app.inject({
      method: 'POST',
      url: setupPath,
      headers: FORM,
      payload: form({ password: 'short', repeat: 'shorter' }),
    });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('Use at least 10 characters');
    expect(both.body).toContain('This is not the same as the password above');
    // Nothing was set: the link still works.
    expect((await setPassword()).statusCode).toBe(303);
  });

  it('answers an unknown email and a wrong password alike, and the 11th failure with 429', async () => {
    await setPassword();
    const unknown = await login('nobody@example.com', 'wrong password');
    const wrong = await login('olga@example.com', 'wrong password');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    const message = (body: string) => /id="login-error">([^<]*)</.exec(body)?.[1];
    expect(message(unknown.body)).toBeTruthy();
    expect(message(unknown.body)).toBe(message(wrong.body));
    expect(unknown.headers['set-cookie']).toBeUndefined();
    for (let i = 3; i <= 10; i += 1) expect((await login('olga@example.com', `wrong ${i}`)).statusCode).toBe(401);
    const eleventh = await login('olga@example.com', PASSWORD);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.headers['retry-after']).toBe('900');
    expect(eleventh.headers['set-cookie']).toBeUndefined();
  });

  it('sign-in from a foreign origin is refused', async () => {
    await setPassword();
    const res = await login('olga@example.com', PASSWORD, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('sign-out ends the session everywhere; a password change ends the other sessions', async () => {
    await setPassword();
    const a = cookieOf(await login('olga@example.com', PASSWORD));
    const b = cookieOf(await login('olga@example.com', PASSWORD));
    const account = await app.inject({ method: 'GET', url: '/account', headers: { cookie: a } });
    expect(account.statusCode).toBe(200);
    const changed = await app.inject({
      method: 'POST',
      url: '/account/password',
      headers: { ...FORM, cookie: a },
      payload: form({ _csrf: csrfOf(account.body), currentPassword: PASSWORD, newPassword: 'a new long password' }),
    });
    expect(changed.statusCode).toBe(303);
    expect((await app.inject({ method: 'GET', url: '/account', headers: { cookie: a } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/account', headers: { cookie: b } })).headers.location).toMatch(
      /^\/login/,
    );

    const page = await app.inject({ method: 'GET', url: '/account', headers: { cookie: a } });
    const out = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { ...FORM, cookie: a },
      payload: form({ _csrf: csrfOf(page.body) }),
    });
    expect(out.statusCode).toBe(303);
    expect(String(out.headers['set-cookie'])).toMatch(/^leadscan_session=;/);
    expect((await app.inject({ method: 'GET', url: '/account', headers: { cookie: a } })).headers.location).toMatch(
      /^\/login/,
    );
    expect(await world.store.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('admin pages carry a strict CSP and refuse framing; the hosted form stays embeddable', async () => {
    for (const url of ['/login', setupPath]) {
      const res = await app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
      expect(res.body).not.toMatch(/ style=| on[a-z]+=/);
    }
    const formPage = await app.inject({ method: 'GET', url: `/f/${acme.source.token}` });
    expect(formPage.statusCode).toBe(200);
    expect(formPage.headers['x-frame-options']).toBeUndefined();
    expect(String(formPage.headers['content-security-policy'])).not.toContain('frame-ancestors');
  });
});
