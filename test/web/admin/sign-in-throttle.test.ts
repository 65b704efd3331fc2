import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { passwordWork } from '../../../src/domain/auth/password.js';
import { setPasswordWithLink } from '../../../src/domain/auth/setup-links.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { csrfOf } from '../../helpers/csrf-of.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Throttles that hold under concurrency: the attempt is claimed before the password is checked. */
describeEachBackend('sign-in and password-change throttling under parallel guesses', (backend) => {
  let world: TestWorld;
  let app: App;
  beforeEach(async () => {
    world = await createWorld(backend);
    app = await world.app();
    const acme = await world.seed('Acme');
    const created = await createUser({
      ctx: world.ctx,
      input: { email: 'olga@example.com', workspaceId: acme.workspaceId, role: 'owner' },
    });
    await setPasswordWithLink({
      ctx: world.ctx,
      input: { token: new URL(created.setupUrl!).pathname.split('/').pop()!, password: PASSWORD },
    });
  });
  afterEach(async () => {
    await world.close();
  });

  const login = (email: string, password: string, remoteAddress = '203.0.113.9') =>
    app.inject({ method: 'POST', url: '/login', headers: FORM, payload: form({ email, password }), remoteAddress });

  it('50 parallel wrong passwords from one address: at most 10 password checks, the rest 429', async () => {
    const before = passwordWork.checks;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login('olga@example.com', `wrong guess ${i}`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(passwordWork.checks - before).toBeLessThanOrEqual(10);
    // The right password is refused too until the window passes: the limit is on attempts, not on wrong ones.
    expect((await login('olga@example.com', PASSWORD)).statusCode).toBe(429);
    // Some forty refusals, racing each other, and one audit record: the first refusal of the window.
    const throttled = await world.store.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'sign_in.throttled')
      .execute();
    expect(throttled).toHaveLength(1);
  });

  it('a right password takes its claim back: eleven good sign-ins in a row all pass', async () => {
    for (let i = 0; i < 11; i += 1) expect((await login('olga@example.com', PASSWORD)).statusCode).toBe(303);
  });

  it('a flood of sign-ins for many emails from many addresses runs at most 2 scrypt checks at once', async () => {
    passwordWork.peak = 0;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(`person-${i}@example.com`, 'some password', `198.51.100.${i + 1}`)),
    );
    expect(passwordWork.peak).toBeLessThanOrEqual(2);
    const busy = answers.filter((a) => a.statusCode === 429);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]!.headers['retry-after']).toBe('5');
    expect(answers.every((a) => a.statusCode === 401 || a.statusCode === 429)).toBe(true);
  });

  it('the current password on the Account screen: after 10 wrong ones even the right one is refused', async () => {
    const cookie = String((await login('olga@example.com', PASSWORD)).headers['set-cookie']).split(';')[0]!;
    const change = async (currentPassword: string) => {
      const page = await app.inject({ method: 'GET', url: '/account', headers: { cookie } });
      return app.inject({
        method: 'POST',
        url: '/account/password',
        headers: { ...FORM, cookie },
        payload: form({ _csrf: csrfOf(page.body), currentPassword, newPassword: 'a brand new password' }),
      });
    };
    const hashBefore = (await world.store.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow())
      .password_hash;
    for (let i = 0; i < 10; i += 1) expect((await change(`not it ${i}`)).statusCode).toBe(400);
    const eleventh = await change(PASSWORD);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.body).toMatch(/id="f-currentPassword-error">Too many wrong current passwords/);
    const hashAfter = (await world.store.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow())
      .password_hash;
    expect(hashAfter).toBe(hashBefore);
  });
});
