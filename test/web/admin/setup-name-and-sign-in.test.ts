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

describeEachBackend(
  'first start names the business and offers its email; a new password signs the person in',
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
          .select(['name', 'business_email'])
          .where('id', '=', first.workspaceId)
          .executeTakeFirstOrThrow();
        // The email given on the setup page is offered as the business's email (Settings changes it).
        expect(workspace).toEqual({ name: 'Bright Floors', business_email: 'ada@bright.test' });
        const hosted = await freshApp.inject({ method: 'GET', url: new URL(first.source.formUrl).pathname });
        expect(hosted.body).toContain('<h1>Bright Floors</h1>');
        expect(hosted.body).not.toContain('Default');
      } finally {
        await fresh.close();
      }
    });

    it('setting the password through a link signs the person in: no second sign-in, a session like sign-in’s', async () => {
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
      expect(set.headers.location).toBe('/?notice=password-set');
      const setCookie = String(set.headers['set-cookie']);
      expect(setCookie).toMatch(/^leadscan_session=[A-Za-z0-9_-]{43};/);
      for (const flag of ['HttpOnly', 'SameSite=Lax', 'Path=/']) expect(setCookie).toContain(flag);
      expect(setCookie).not.toContain('olga@example.com');
      const home = await app.inject({ method: 'GET', url: '/', headers: { cookie: cookieOf(set) } });
      expect(home.headers.location).toBe(`/w/${acme.workspaceId}/leads`);
      const inbox = await app.inject({
        method: 'GET',
        url: home.headers.location!,
        headers: { cookie: cookieOf(set) },
      });
      expect(inbox.statusCode).toBe(200);
      // Recorded as a sign-in, as the sign-in page's would be.
      const signIns = await world.store.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'sign_in.succeeded')
        .execute();
      expect(signIns).toHaveLength(1);
    });

    it('a reset link signs in too, ending every older session of the person', async () => {
      const created = await createUser({
        ctx: world.ctx,
        input: { email: 'sam@example.com', workspaceId: acme.workspaceId },
      });
      const first = await app.inject({
        method: 'POST',
        url: new URL(created.setupUrl!).pathname,
        headers: FORM,
        payload: form({ password: PASSWORD, repeat: PASSWORD }),
      });
      const { setupUrl } = await resetPassword({ ctx: world.ctx, input: { email: 'sam@example.com' } });
      const set = await app.inject({
        method: 'POST',
        url: new URL(setupUrl).pathname,
        headers: FORM,
        payload: form({ password: `${PASSWORD}!`, repeat: `${PASSWORD}!` }),
      });
      expect(set.statusCode).toBe(303);
      expect((await app.inject({ method: 'GET', url: '/', headers: { cookie: cookieOf(set) } })).statusCode).toBe(303);
      // The session the first link made ended with the reset.
      expect(
        (await app.inject({ method: 'GET', url: '/', headers: { cookie: cookieOf(first) } })).headers.location,
      ).toBe('/login');
    });
  },
);
