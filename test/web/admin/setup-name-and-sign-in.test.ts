import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { bootstrap } from '../../../src/domain/bootstrap.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { resetPassword } from '../../../src/domain/users/reset-password.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie'] ?? '').split(';')[0]!;
const emailInput = (body: string) =>
  /<input type="email" id="f-email" name="email"[^>]*value="([^"]*)"/.exec(body)?.[1];

describeEachBackend(
  'first start names the business; after a new password the sign-in form knows the email',
  (backend) => {
    let world: TestWorld;
    let app: App;
    let clock: TestClock;
    let acme: Seeded;
    beforeEach(async () => {
      clock = new TestClock(Date.parse('2026-03-02T12:00:00.000Z'));
      world = await createWorld(backend, { clock });
      app = await world.app();
      acme = await world.seed('Acme');
    });
    afterEach(async () => {
      await world.close();
    });

    it('the first start’s setup page asks for the business’s name, which names the workspace and heads the public form', async () => {
      const fresh = await createWorld(backend);
      try {
        const first = await bootstrap({ ctx: fresh.ctx });
        if (!first.created || !first.adminSetup) throw new Error('expected a first start');
        const freshApp = await fresh.app();
        const path = new URL(first.adminSetup.setupUrl).pathname;
        const page = await freshApp.inject({ method: 'GET', url: path });
        expect(page.body).toContain('name="businessName"');
        expect(page.body).toContain('Heads your public lead form');
        const profile = { email: 'ada@bright.test', displayName: 'Ada', password: PASSWORD, repeat: PASSWORD };
        const empty = await freshApp.inject({
          method: 'POST',
          url: path,
          headers: FORM,
          payload: form({ ...profile, businessName: '  ' }),
        });
        expect(empty.statusCode).toBe(400);
        expect(empty.body).toMatch(/id="f-businessName-error"/);
        const set = await freshApp.inject({
          method: 'POST',
          url: path,
          headers: FORM,
          payload: form({ ...profile, businessName: ' Bright Floors ' }),
        });
        expect(set.statusCode).toBe(303);
        const workspace = await fresh.store.db
          .selectFrom('workspaces')
          .select('name')
          .where('id', '=', first.workspaceId)
          .executeTakeFirstOrThrow();
        expect(workspace.name).toBe('Bright Floors');
        const hosted = await freshApp.inject({ method: 'GET', url: new URL(first.source.formUrl).pathname });
        expect(hosted.body).toContain('<h1>Bright Floors</h1>');
        expect(hosted.body).not.toContain('Default');
      } finally {
        await fresh.close();
      }
    });

    it('after a setup link’s password the sign-in form has the email filled in, and no URL carries it', async () => {
      const created = await createUser({
        ctx: world.ctx,
        input: { email: 'olga@example.com', workspaceId: acme.workspaceId, role: 'owner' },
      });
      const set = await app.inject({
        method: 'POST',
        url: new URL(created.setupUrl!).pathname,
        headers: FORM,
        payload: form({ password: PASSWORD, repeat: PASSWORD }),
      });
      expect(set.statusCode).toBe(303);
      expect(set.headers.location).toBe('/login?notice=password-set');
      const setCookie = String(set.headers['set-cookie']);
      expect(setCookie).not.toContain('olga@example.com');
      for (const flag of ['HttpOnly', 'SameSite=Lax', 'Path=/login', 'Max-Age=300']) expect(setCookie).toContain(flag);
      const login = await app.inject({ method: 'GET', url: set.headers.location!, headers: { cookie: cookieOf(set) } });
      expect(emailInput(login.body)).toBe('olga@example.com');
      // Read once: the cookie is cleared by the page that used it.
      expect(String(login.headers['set-cookie'])).toMatch(/^leadscan_sign_in_email=;/);
      // Without the cookie, or with one changed by hand, the form is empty.
      expect(emailInput((await app.inject({ method: 'GET', url: '/login' })).body)).toBe('');
      const [name, value] = cookieOf(set).split('=') as [string, string];
      const forged = `${name}=${Buffer.from('eve@evil.test').toString('base64url')}.${value.split('.')[1]}.${value.split('.')[2]}`;
      expect(emailInput((await app.inject({ method: 'GET', url: '/login', headers: { cookie: forged } })).body)).toBe(
        '',
      );
    });

    it('a reset link prefills too, for five minutes only', async () => {
      await createUser({ ctx: world.ctx, input: { email: 'sam@example.com', workspaceId: acme.workspaceId } });
      const { setupUrl } = await resetPassword({ ctx: world.ctx, input: { email: 'sam@example.com' } });
      const set = await app.inject({
        method: 'POST',
        url: new URL(setupUrl).pathname,
        headers: FORM,
        payload: form({ password: PASSWORD, repeat: PASSWORD }),
      });
      expect(set.statusCode).toBe(303);
      clock.advance(4 * 60 * 1000);
      expect(
        emailInput((await app.inject({ method: 'GET', url: '/login', headers: { cookie: cookieOf(set) } })).body),
      ).toBe('sam@example.com');
      clock.advance(2 * 60 * 1000);
      expect(
        emailInput((await app.inject({ method: 'GET', url: '/login', headers: { cookie: cookieOf(set) } })).body),
      ).toBe('');
    });
  },
);
