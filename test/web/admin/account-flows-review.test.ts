import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { buildApp, type App } from '../../../src/app.js';
import { setPasswordWithLink } from '../../../src/domain/auth/setup-links.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { resetPassword } from '../../../src/domain/users/reset-password.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { createDomainContext } from '../../../src/runtime.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { csrfOf } from '../../helpers/csrf-of.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const SETUP_LINK = /https?:\/\/[^\s"<]+\/setup\/[A-Za-z0-9_-]{43}/;
const CONFIRM_LINK = /https?:\/\/[^\s"<]+\/confirm-email\/[A-Za-z0-9_-]{43}/;
const pathOf = (url: string) => new URL(url).pathname;
const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

/**
 * Security review, issue 33: the account flows (sign-in, invitations, password reset, email change) as an attacker
 * walks them, through the pages and a real SMTP server. `app` has email set up; `offApp` is the same server (same
 * database and secret) as it ran before email was set up.
 */
describeEachBackend('account flows under attack (issue 33)', (backend) => {
  let sink: SmtpSink;
  let world: TestWorld;
  let app: App;
  let offApp: App;
  let a: Seeded;
  let b: Seeded;

  beforeEach(async () => {
    sink = await startSmtpSink();
    world = await createWorld(backend, {
      clock: new TestClock(Date.parse('2026-11-26T12:00:00.000Z')),
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <people@leadscan.test>' },
    });
    app = await world.app();
    const withoutMail = { ...world.config, mail: undefined };
    offApp = await buildApp(
      createDomainContext({
        config: withoutMail,
        store: world.store,
        appSecret: world.appSecret,
        clock: world.ctx.clock,
      }),
      { logger: false },
    );
    a = await world.seed('Acme');
    b = await world.seed('Bogus');
    await person('anna@a.test', a);
    await person('boris@b.test', b);
    await mails(2); // their invitations
    sink.messages.length = 0;
  });

  afterEach(async () => {
    await offApp.close();
    await world.close();
    await sink.stop();
  });

  /** An owner whose password was set through the operator's link (as `leadscan user reset-password` prints it). */
  async function person(email: string, workspace: Seeded) {
    await createUser({ ctx: world.ctx, input: { email, workspaceId: workspace.workspaceId, role: 'owner' } });
    const { setupUrl } = await resetPassword({ ctx: world.ctx, input: { email } });
    await setPasswordWithLink({
      ctx: world.ctx,
      input: { token: pathOf(setupUrl).split('/').pop()!, password: PASSWORD },
    });
  }
  /** Sends what the outbox holds now and waits until the sink has `total` messages. */
  async function mails(total: number): Promise<ParsedMail[]> {
    await deliverDueEmails(world.ctx, { limit: 100 });
    return sink.waitFor(total);
  }
  const mailTo = (address: string) => sink.messages.filter((m) => to(m) === address);
  async function signIn(email: string, password = PASSWORD, on = app): Promise<string> {
    const res = await on.inject({ method: 'POST', url: '/login', headers: FORM, payload: form({ email, password }) });
    expect(res.statusCode).toBe(303);
    return String(res.headers['set-cookie']).split(';')[0]!;
  }
  const login = (email: string, password = PASSWORD) =>
    app.inject({ method: 'POST', url: '/login', headers: FORM, payload: form({ email, password }) });
  const get = (cookie: string, url: string, on = app) => on.inject({ method: 'GET', url, headers: { cookie } });
  async function post(
    cookie: string,
    url: string,
    fields: Record<string, string> = {},
    options: { on?: App; remoteAddress?: string } = {},
  ) {
    const on = options.on ?? app;
    const page = await get(cookie, '/account', on);
    return on.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrfOf(page.body), ...fields }),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
  }
  const setPassword = (link: string, password: string, on = app) =>
    on.inject({ method: 'POST', url: pathOf(link), headers: FORM, payload: form({ password, repeat: password }) });
  const userRow = (email: string) =>
    world.store.db
      .selectFrom('users')
      .select(['id', 'email', 'email_proven_at', 'link_workspace_id'])
      .where('email_key', '=', email)
      .executeTakeFirst();
  const membersOf = async (workspace: Seeded) =>
    world.store.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email', 'memberships.role'])
      .where('workspace_id', '=', workspace.workspaceId)
      .orderBy('users.email')
      .execute();
  const invitationOf = async (workspace: Seeded) =>
    world.store.db
      .selectFrom('invitations')
      .select(['id', 'user_id'])
      .where('workspace_id', '=', workspace.workspaceId)
      .executeTakeFirst();

  it('finding 1: proving a different address neither carries the old address’s invitations nor lifts the inviter’s hold', async () => {
    // Email off: B's owner invites victim@corp.test and is shown the setup link; A's owner invites the same address
    // as owner, which records an invitation for the account B just made.
    const borisOff = await signIn('boris@b.test', PASSWORD, offApp);
    const squat = await post(
      borisOff,
      `/w/${b.workspaceId}/members`,
      { email: 'victim@corp.test', role: 'member' },
      { on: offApp },
    );
    const link = SETUP_LINK.exec(squat.body)![0];
    const annaOff = await signIn('anna@a.test', PASSWORD, offApp);
    const invited = await post(
      annaOff,
      `/w/${a.workspaceId}/members`,
      { email: 'victim@corp.test', role: 'owner' },
      { on: offApp },
    );
    expect(invited.statusCode).toBe(200);
    expect(invited.body).not.toMatch(/\/setup\//);
    const aInvitation = await invitationOf(a);
    expect(aInvitation).toBeDefined();
    // B sets the password through the link it saw: the account is held to B, so A's invitation is refused.
    expect((await setPassword(link, 'boris holds this one', offApp)).statusCode).toBe(303);
    const held = await signIn('victim@corp.test', 'boris holds this one', offApp);
    expect((await post(held, `/account/invitations/${aInvitation!.id}/accept`, {}, { on: offApp })).statusCode).toBe(
      403,
    );

    // Email on: the attacker moves the account to a mailbox of their own and confirms it from there.
    const moved = await post(held, '/account/email', {
      newEmail: 'attacker@evil.test',
      emailPassword: 'boris holds this one',
    });
    expect(moved.statusCode).toBe(303);
    const [confirmation] = await mails(1);
    expect(to(confirmation!)).toBe('attacker@evil.test');
    const confirmed = await app.inject({
      method: 'POST',
      url: pathOf(CONFIRM_LINK.exec(confirmation!.text ?? '')![0]),
      headers: FORM,
      payload: '',
    });
    expect(confirmed.statusCode).toBe(200);
    const account = await userRow('attacker@evil.test');
    expect(account).toMatchObject({
      email: 'attacker@evil.test',
      email_proven_at: null,
      link_workspace_id: b.workspaceId,
    });

    // A's invitation was for victim@corp.test: it went with the address, and A has no new owner.
    expect(await invitationOf(a)).toBeUndefined();
    const accept = await post(held, `/account/invitations/${aInvitation!.id}/accept`);
    expect(accept.statusCode).toBe(404);
    expect((await get(held, `/w/${a.workspaceId}/leads`)).statusCode).toBe(404);
    expect(await membersOf(a)).toEqual([{ email: 'anna@a.test', role: 'owner' }]);
    expect((await get(held, '/account')).body).not.toContain('Acme');

    // The hold stays too: an invitation sent to the new address waits until the account proves itself the usual way.
    const annaOn = await signIn('anna@a.test');
    expect(
      (await post(annaOn, `/w/${a.workspaceId}/members`, { email: 'attacker@evil.test', role: 'member' })).statusCode,
    ).toBe(200);
    const toNewAddress = (await invitationOf(a))!;
    expect(toNewAddress.user_id).toBe(account!.id);
    expect((await post(held, `/account/invitations/${toNewAddress.id}/accept`)).statusCode).toBe(403);
    expect(await membersOf(a)).toEqual([{ email: 'anna@a.test', role: 'owner' }]);

    // A's owner inviting victim@corp.test again now reaches the real person: a new account, its link in their mailbox.
    expect(
      (await post(annaOn, `/w/${a.workspaceId}/members`, { email: 'victim@corp.test', role: 'owner' })).statusCode,
    ).toBe(200);
    await mails(4); // the note to attacker@evil.test and the link to victim@corp.test (after the old-address notice)
    const [toVictim] = mailTo('victim@corp.test').filter((m) => SETUP_LINK.test(m.text ?? ''));
    expect(toVictim).toBeDefined();
    const victim = await userRow('victim@corp.test');
    expect(victim!.id).not.toBe(account!.id);
  });

  it('finding 2: a reset link dies with a password change, an email change, or a newer link', async () => {
    const forgot = (email: string) =>
      app.inject({ method: 'POST', url: '/forgot-password', headers: FORM, payload: form({ email }) });
    const linkIn = (mail: ParsedMail | undefined) => SETUP_LINK.exec(mail?.text ?? '')![0];
    let anna = await signIn('anna@a.test');

    // Password change.
    await forgot('anna@a.test');
    const beforeChange = linkIn((await mails(1))[0]);
    expect(
      (await post(anna, '/account/password', { currentPassword: PASSWORD, newPassword: 'anna changed it herself' }))
        .statusCode,
    ).toBe(303);
    expect((await app.inject({ method: 'GET', url: pathOf(beforeChange) })).statusCode).toBe(410);
    expect((await setPassword(beforeChange, 'the thief picks this')).statusCode).toBe(410);
    expect((await login('anna@a.test', 'the thief picks this')).statusCode).toBe(401);
    expect((await login('anna@a.test', 'anna changed it herself')).statusCode).toBe(303);

    // A newer link of the same kind.
    await forgot('anna@a.test');
    await forgot('anna@a.test');
    const [older, newer] = (await mails(3)).slice(1).map(linkIn);
    expect((await setPassword(older!, 'from the older link')).statusCode).toBe(410);
    expect((await setPassword(newer!, 'from the newer link')).statusCode).toBe(303);

    // Email change (the link was mailed to the address the account no longer has).
    anna = await signIn('anna@a.test', 'from the newer link');
    await forgot('anna@a.test');
    const beforeMove = linkIn((await mails(4))[3]);
    expect(
      (await post(anna, '/account/email', { newEmail: 'anna@moved.test', emailPassword: 'from the newer link' }))
        .statusCode,
    ).toBe(303);
    const confirmLink = CONFIRM_LINK.exec((await mails(5))[4]!.text ?? '')![0];
    expect(
      (await app.inject({ method: 'POST', url: pathOf(confirmLink), headers: FORM, payload: '' })).statusCode,
    ).toBe(200);
    expect((await setPassword(beforeMove, 'the old mailbox picks this')).statusCode).toBe(410);
    expect((await login('anna@moved.test', 'the old mailbox picks this')).statusCode).toBe(401);
    expect((await login('anna@moved.test', 'from the newer link')).statusCode).toBe(303);
  });

  it('finding 2: an email-change confirmation dies with a password change or a newer request', async () => {
    let boris = await signIn('boris@b.test');
    expect(
      (await post(boris, '/account/email', { newEmail: 'boris@first.test', emailPassword: PASSWORD })).statusCode,
    ).toBe(303);
    expect(
      (await post(boris, '/account/email', { newEmail: 'boris@second.test', emailPassword: PASSWORD })).statusCode,
    ).toBe(303);
    const [first, second] = (await mails(2)).map((m) => CONFIRM_LINK.exec(m.text ?? '')![0]);
    expect((await app.inject({ method: 'POST', url: pathOf(first!), headers: FORM, payload: '' })).statusCode).toBe(
      410,
    );

    // Boris notices a stranger in his account and changes the password: the change they asked for dies with it.
    expect(
      (await post(boris, '/account/password', { currentPassword: PASSWORD, newPassword: 'boris took it back' }))
        .statusCode,
    ).toBe(303);
    expect((await app.inject({ method: 'GET', url: pathOf(second!) })).statusCode).toBe(410);
    expect((await app.inject({ method: 'POST', url: pathOf(second!), headers: FORM, payload: '' })).statusCode).toBe(
      410,
    );
    expect((await userRow('boris@b.test'))?.email).toBe('boris@b.test');
    boris = await signIn('boris@b.test', 'boris took it back');
    expect((await get(boris, '/account')).body).not.toContain('Waiting for confirmation');
  });

  it('finding 8: the email change answers a taken address like a free one, tells its owner, and is throttled', async () => {
    const anna = await signIn('anna@a.test');
    const free = await post(anna, '/account/email', { newEmail: 'anna@free.test', emailPassword: PASSWORD });
    const freePage = (await get(anna, '/account')).body;
    const taken = await post(anna, '/account/email', { newEmail: 'Boris@b.test', emailPassword: PASSWORD });
    const takenPage = (await get(anna, '/account')).body;
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.headers.location).toBe(free.headers.location);
    expect(taken.body).toBe(free.body);
    const waiting = (page: string, address: string) =>
      /<p class="notice info" role="status">Waiting for confirmation[^]*?<\/p>/
        .exec(page)?.[0]
        .replace(address, 'ADDRESS');
    expect(waiting(takenPage, 'Boris@b.test')).toBeDefined();
    expect(waiting(takenPage, 'Boris@b.test')).toBe(waiting(freePage, 'anna@free.test'));

    // The owner of the taken address is told, with no link; nothing changes for either account.
    const sent = await mails(2);
    const toBoris = sent.find((m) => to(m) === 'Boris@b.test')!;
    expect(toBoris.subject).toBe('Someone tried to use your Leadscan email');
    expect(toBoris.text).not.toMatch(/confirm-email/);
    expect(toBoris.html || '').not.toMatch(/confirm-email/);
    expect((await userRow('anna@a.test'))?.email).toBe('anna@a.test');
    expect((await userRow('boris@b.test'))?.email).toBe('boris@b.test');

    // Every request counts, right password or not: ten in 15 minutes per person, whatever their client address...
    for (let i = 0; i < 8; i++) {
      const probe = await post(
        anna,
        '/account/email',
        { newEmail: `probe${i}@x.test`, emailPassword: PASSWORD },
        { remoteAddress: `203.0.113.${i + 1}` },
      );
      expect(probe.statusCode).toBe(303);
    }
    const refused = await post(
      anna,
      '/account/email',
      { newEmail: 'one-more@x.test', emailPassword: PASSWORD },
      { remoteAddress: '203.0.113.99' },
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.body).toMatch(/Too many email changes asked for/);
    // ...and ten per client address, whoever asks.
    await person('carl@a.test', a);
    const boris = await signIn('boris@b.test');
    const carl = await signIn('carl@a.test');
    for (let i = 0; i < 5; i++) {
      for (const [who, cookie] of [
        ['boris', boris],
        ['carl', carl],
      ] as const) {
        const asked = await post(
          cookie,
          '/account/email',
          { newEmail: `${who}${i}@x.test`, emailPassword: PASSWORD },
          { remoteAddress: '192.0.2.7' },
        );
        expect(asked.statusCode).toBe(303);
      }
    }
    expect(
      (
        await post(
          carl,
          '/account/email',
          { newEmail: 'carl@x.test', emailPassword: PASSWORD },
          { remoteAddress: '192.0.2.7' },
        )
      ).statusCode,
    ).toBe(429);
    expect(
      (
        await post(
          carl,
          '/account/email',
          { newEmail: 'carl@x.test', emailPassword: PASSWORD },
          { remoteAddress: '198.51.100.9' },
        )
      ).statusCode,
    ).toBe(303);
  });
});
