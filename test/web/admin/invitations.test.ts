import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { resetPassword } from '../../../src/domain/users/reset-password.js';
import { bootstrap } from '../../../src/domain/bootstrap.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';
import { csrfOf } from '../../helpers/csrf-of.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const SETUP_LINK = /https?:\/\/[^\s"<]+\/setup\/([A-Za-z0-9_-]{43})/;

/**
 * Invitations never hand over someone else's account: the two takeovers an attacker's probe found, replayed
 * through the pages. Owner A and owner B run two workspaces on one server; B must never get into A.
 */
describeEachBackend('invitations through the Members and Account pages', (backend) => {
  let world: TestWorld;
  let app: App;
  let a: Seeded;
  let b: Seeded;
  let ownerA: string;
  let ownerB: string;

  const setPassword = (setupUrl: string, password = PASSWORD) =>
    app.inject({
      method: 'POST',
      url: new URL(setupUrl).pathname,
      headers: FORM,
      payload: form({ password, repeat: password }),
    });
  const signIn = async (email: string, password = PASSWORD) => {
    const res = await app.inject({ method: 'POST', url: '/login', headers: FORM, payload: form({ email, password }) });
    expect(res.statusCode).toBe(303);
    return String(res.headers['set-cookie']).split(';')[0]!;
  };
  const get = (cookie: string, url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  /** A POST from a page: the session's CSRF token is read off the page first, as a browser's form would carry it. */
  const post = async (cookie: string, url: string, fields: Record<string, string> = {}) => {
    const page = await get(cookie, '/account');
    return app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrfOf(page.body), ...fields }),
    });
  };
  const invite = (cookie: string, workspace: Seeded | string, email: string, role = 'owner') =>
    post(cookie, `/w/${typeof workspace === 'string' ? workspace : workspace.workspaceId}/members`, { email, role });
  /** The invite answer's notice, with the email taken out: what the inviter learns. */
  const answerOf = (body: string, email: string) => {
    const match = /<section class="notice info"[\s\S]*?<\/section>/.exec(body);
    expect(match).not.toBeNull();
    return match![0].replaceAll(email, 'EMAIL');
  };
  const ownerOf = async (workspace: Seeded, email: string) => {
    const created = await createUser({
      ctx: world.ctx,
      input: { email, workspaceId: workspace.workspaceId, role: 'owner' },
    });
    expect((await setPassword(created.setupUrl!)).statusCode).toBe(303);
    return signIn(email);
  };

  beforeEach(async () => {
    world = await createWorld(backend);
    app = await world.app();
    a = await world.seed('Acme');
    b = await world.seed('Bogus');
    ownerA = await ownerOf(a, 'anna@a.test');
    ownerB = await ownerOf(b, 'boris@b.test');
  });
  afterEach(async () => {
    await world.close();
  });

  it('a second invite of an account that has not set its password gives the inviter no link, and the first link keeps working', async () => {
    const first = await invite(ownerA, a, 'carol@a.test');
    expect(first.statusCode).toBe(200);
    const carolLink = SETUP_LINK.exec(first.body)![0];

    const second = await invite(ownerB, b, 'Carol@A.test');
    expect(second.statusCode).toBe(200);
    expect(second.body).not.toMatch(/\/setup\//);
    // The same answer for an account without a password as for one with a password: nothing tells them apart.
    const withPassword = await invite(ownerB, b, 'anna@a.test');
    expect(answerOf(second.body, 'Carol@A.test')).toBe(answerOf(withPassword.body, 'anna@a.test'));
    // Carol is not in B until she says so.
    const members = await get(ownerB, `/w/${b.workspaceId}/members`);
    expect(members.body).toContain('Waiting to accept');
    expect(
      await world.store.db
        .selectFrom('memberships')
        .select('user_id')
        .where('workspace_id', '=', b.workspaceId)
        .execute(),
    ).toHaveLength(1);

    // The real invitee's link still works: B's invite did not replace it.
    expect((await app.inject({ method: 'GET', url: new URL(carolLink).pathname })).statusCode).toBe(200);
    expect((await setPassword(carolLink)).statusCode).toBe(303);
    const carol = await signIn('carol@a.test');
    expect((await get(carol, `/w/${a.workspaceId}/leads`)).statusCode).toBe(200);
    expect((await get(carol, `/w/${b.workspaceId}/leads`)).statusCode).toBe(404);
    // A saw her link, so she has not proven the address: she may not join B yet, and the page says what to do.
    const account = await get(carol, '/account');
    expect(account.body).toContain('Bogus');
    expect(account.body).toContain('prove this email address is yours');
    const invitationId = /\/account\/invitations\/(inv_[0-9a-f]{32})\/accept/.exec(account.body);
    expect(invitationId).toBeNull();
    const pendingId = (
      await world.store.db
        .selectFrom('invitations')
        .innerJoin('users', 'users.id', 'invitations.user_id')
        .select('invitations.id')
        .where('users.email_key', '=', 'carol@a.test')
        .executeTakeFirstOrThrow()
    ).id;
    const refused = await post(carol, `/account/invitations/${pendingId}/accept`);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('leadscan user reset-password');
    expect((await get(carol, `/w/${b.workspaceId}/leads`)).statusCode).toBe(404);
  });

  it('admin@localhost before its first-start link is used: another workspace’s invite hands out nothing', async () => {
    const fresh = await createWorld(backend);
    try {
      const first = await bootstrap({ ctx: fresh.ctx });
      if (!first.created || !first.adminSetup) throw new Error('expected a first start');
      const other = await fresh.seed('Other');
      const freshApp = await fresh.app();
      const otherOwner = await createUser({
        ctx: fresh.ctx,
        input: { email: 'oscar@o.test', workspaceId: other.workspaceId, role: 'owner' },
      });
      const pathOf = (url: string) => new URL(url).pathname;
      await freshApp.inject({
        method: 'POST',
        url: pathOf(otherOwner.setupUrl!),
        headers: FORM,
        payload: form({ password: PASSWORD, repeat: PASSWORD }),
      });
      const login = await freshApp.inject({
        method: 'POST',
        url: '/login',
        headers: FORM,
        payload: form({ email: 'oscar@o.test', password: PASSWORD }),
      });
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const page = await freshApp.inject({ method: 'GET', url: '/account', headers: { cookie } });
      const answer = await freshApp.inject({
        method: 'POST',
        url: `/w/${other.workspaceId}/members`,
        headers: { ...FORM, cookie },
        payload: form({ _csrf: csrfOf(page.body), email: 'admin@localhost', role: 'owner' }),
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toMatch(/\/setup\//);
      expect((await freshApp.inject({ method: 'GET', url: pathOf(first.adminSetup.setupUrl) })).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('pre-registration: whoever set up an account through their own invite cannot accept another workspace’s invitation', async () => {
    // B invites Dave first, sees the link, and sets the password itself.
    const squat = await invite(ownerB, b, 'dave@a.test', 'member');
    const link = SETUP_LINK.exec(squat.body)![0];
    expect((await setPassword(link, 'boris knows this one')).statusCode).toBe(303);
    const heldByB = await signIn('dave@a.test', 'boris knows this one');

    // Later A invites the real Dave: no link, no membership, an invitation.
    const answer = await invite(ownerA, a, 'dave@a.test', 'member');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).not.toMatch(/\/setup\//);
    expect((await get(heldByB, `/w/${a.workspaceId}/leads`)).statusCode).toBe(404);
    const invitationId = (
      await world.store.db
        .selectFrom('invitations')
        .select('id')
        .where('workspace_id', '=', a.workspaceId)
        .executeTakeFirstOrThrow()
    ).id;
    const refused = await post(heldByB, `/account/invitations/${invitationId}/accept`);
    expect(refused.statusCode).toBe(403);
    expect((await get(heldByB, `/w/${a.workspaceId}/leads`)).statusCode).toBe(404);
    expect((await get(heldByB, `/w/${a.workspaceId}/scans/key`)).statusCode).toBe(404);

    // The real Dave gets a link from the operator on the server: it proves the address and ends B's sessions.
    const reset = await resetPassword({ ctx: world.ctx, input: { email: 'dave@a.test' } });
    expect((await setPassword(reset.setupUrl, 'dave’s own password')).statusCode).toBe(303);
    expect((await get(heldByB, '/account')).headers.location).toMatch(/^\/login/);
    const dave = await signIn('dave@a.test', 'dave’s own password');
    expect((await get(dave, '/')).headers.location).toBe('/account');
    const accepted = await post(dave, `/account/invitations/${invitationId}/accept`);
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe(`/w/${a.workspaceId}/leads`);
    expect((await get(dave, `/w/${a.workspaceId}/leads`)).statusCode).toBe(200);
    expect(await world.store.db.selectFrom('invitations').selectAll().execute()).toEqual([]);
  });

  it('an invitation is the invitee’s to accept or decline, the inviting owner’s to withdraw, and nobody else’s', async () => {
    // Anna (A's owner, set up through the operator's CLI link, so proven) is invited into B.
    await invite(ownerB, b, 'anna@a.test', 'member');
    const id = (await world.store.db.selectFrom('invitations').select('id').executeTakeFirstOrThrow()).id;
    // Another person cannot accept or decline it, and B's owner cannot withdraw it through A's workspace.
    expect((await post(ownerB, `/account/invitations/${id}/accept`)).statusCode).toBe(404);
    expect((await post(ownerB, `/account/invitations/${id}/decline`)).statusCode).toBe(404);
    expect((await post(ownerA, `/w/${a.workspaceId}/members/invitations/${id}/cancel`)).statusCode).toBe(404);
    expect(await world.store.db.selectFrom('invitations').selectAll().execute()).toHaveLength(1);

    const declined = await post(ownerA, `/account/invitations/${id}/decline`);
    expect(declined.headers.location).toBe('/account?notice=invitation-declined');
    expect((await get(ownerA, `/w/${b.workspaceId}/leads`)).statusCode).toBe(404);

    await invite(ownerB, b, 'anna@a.test', 'member');
    const again = (await world.store.db.selectFrom('invitations').select('id').executeTakeFirstOrThrow()).id;
    const withdrawn = await post(ownerB, `/w/${b.workspaceId}/members/invitations/${again}/cancel`);
    expect(withdrawn.headers.location).toBe(`/w/${b.workspaceId}/members?notice=invitation-cancelled`);
    expect((await post(ownerA, `/account/invitations/${again}/accept`)).statusCode).toBe(404);

    await invite(ownerB, b, 'anna@a.test', 'member');
    const third = (await world.store.db.selectFrom('invitations').select('id').executeTakeFirstOrThrow()).id;
    expect((await post(ownerA, `/account/invitations/${third}/accept`)).statusCode).toBe(303);
    expect((await get(ownerA, `/w/${b.workspaceId}/leads`)).statusCode).toBe(200);
  });
});
