import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { App } from '../../../src/app.js';
import { setPasswordWithLink } from '../../../src/domain/auth/setup-links.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { resetPassword } from '../../../src/domain/users/reset-password.js';
import { bootstrap } from '../../../src/domain/bootstrap.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { csrfOf } from '../../helpers/csrf-of.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';

const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const SETUP_LINK = /http:\/\/leadscan\.test\/setup\/[A-Za-z0-9_-]{43}/;
const CONFIRM_LINK = /http:\/\/leadscan\.test\/confirm-email\/[A-Za-z0-9_-]{43}/;
const HOUR = 60 * 60_000;

/** Email for people with SMTP on: invitations, password resets and email changes through a real SMTP server. */
describeEachBackend('email for people', (backend) => {
  let sink: SmtpSink;
  let clock: TestClock;
  let world: TestWorld;
  let app: App;
  let home: Seeded;
  let away: Seeded;
  let owner: string;

  beforeEach(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(Date.parse('2026-03-02T12:00:00.000Z'));
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <people@leadscan.test>' },
    });
    app = await world.app();
    home = await world.seed('Home');
    away = await world.seed('Away');
    await person('olga@home.test', home, 'owner');
    await person('oscar@away.test', away, 'owner');
    await mails(2); // their invitations
    sink.messages.length = 0;
    owner = await signIn('olga@home.test');
  });

  afterEach(async () => {
    await world.close();
    await sink.stop();
  });

  /** An account with a password, set through the operator's link (as `leadscan user reset-password` prints it). */
  async function person(email: string, workspace: Seeded, role: 'owner' | 'member') {
    await createUser({ ctx: world.ctx, input: { email, workspaceId: workspace.workspaceId, role } });
    const { setupUrl } = await resetPassword({ ctx: world.ctx, input: { email } });
    await setPasswordWithLink({ ctx: world.ctx, input: { token: tokenOf(setupUrl), password: PASSWORD } });
  }

  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  const pathOf = (url: string) => new URL(url).pathname;

  /** Sends what the outbox holds now and waits until the sink has `total` messages. */
  async function mails(total: number): Promise<ParsedMail[]> {
    await deliverDueEmails(world.ctx, { limit: 100 });
    return sink.waitFor(total);
  }
  /** Emails queued and not sent yet. */
  const outboxCount = async () =>
    Number(
      (
        await world.store.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('state', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

  async function login(email: string, password = PASSWORD) {
    return app.inject({ method: 'POST', url: '/login', headers: FORM, payload: form({ email, password }) });
  }
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const res = await login(email, password);
    expect(res.statusCode).toBe(303);
    return String(res.headers['set-cookie']).split(';')[0]!;
  }
  const get = (cookie: string, url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  async function post(cookie: string, url: string, fields: Record<string, string>, pageUrl = '/account') {
    const page = await get(cookie, pageUrl);
    return app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrfOf(page.body), ...fields }),
    });
  }
  const invite = (email: string, name = '') =>
    post(owner, `/w/${home.workspaceId}/members`, { email, name, role: 'member' }, `/w/${home.workspaceId}/members`);
  const notice = (body: string) => /<section class="notice info"[\s\S]*?<\/section>/.exec(body)?.[0];
  const forgot = (email: string, remoteAddress = '203.0.113.7') =>
    app.inject({ method: 'POST', url: '/forgot-password', headers: FORM, payload: form({ email }), remoteAddress });
  const userRow = (id: string) =>
    world.store.db
      .selectFrom('users')
      .select(['email', 'display_name', 'email_proven_at', 'link_workspace_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const userIdOf = async (email: string) =>
    (
      await world.store.db
        .selectFrom('users')
        .select('id')
        .where('email_key', '=', email.toLowerCase())
        .executeTakeFirstOrThrow()
    ).id;

  it('Invite emails the link, never shows it; the link sets the password once and proves the email; Name shows in Members', async () => {
    // The email names the inviter by their name, and says until when the link works in the workspace's zone.
    await world.store.db
      .updateTable('users')
      .set({ display_name: 'Olga Ortiz' })
      .where('email_key', '=', 'olga@home.test')
      .execute();
    await world.store.db
      .updateTable('workspaces')
      .set({ time_zone: 'America/Toronto' })
      .where('id', '=', home.workspaceId)
      .execute();
    const answer = await invite('nina@new.test', 'Nina Newcomb');
    expect(answer.statusCode).toBe(200);
    expect(notice(answer.body)).toContain('We emailed an invitation to nina@new.test');
    expect(answer.body).not.toMatch(/\/setup\//);

    const [mail] = await mails(1);
    expect(to(mail!)).toBe('nina@new.test');
    expect(mail!.subject).toBe('You are invited to Home on Leadscan');
    expect(mail!.text).toContain('Olga Ortiz invited you');
    expect(mail!.text).toMatch(/until \w+ \d+, 2026 at \d+:\d{2} [AP]M \(E[SD]T\)\./);
    expect(mail!.text).not.toContain('UTC');
    const link = SETUP_LINK.exec(mail!.text ?? '')![0];
    expect(String(mail!.html)).toContain(link);

    const members = await get(owner, `/w/${home.workspaceId}/members`);
    expect(members.body).toContain('Nina Newcomb');

    expect((await app.inject({ method: 'GET', url: pathOf(link) })).statusCode).toBe(200);
    const set = await app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: FORM,
      payload: form({ password: PASSWORD, repeat: PASSWORD }),
    });
    expect(set.statusCode).toBe(303);
    const again = await app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: FORM,
      payload: form({ password: 'another password', repeat: 'another password' }),
    });
    expect(again.statusCode).toBe(410);
    const nina = await userRow(await userIdOf('nina@new.test'));
    expect(nina.email_proven_at).not.toBeNull();
    expect(nina.link_workspace_id).toBeNull();
    await signIn('nina@new.test');
    // `leadscan user create` goes through the same verb: with email on, it hands out no link either.
    const byOperator = await createUser({
      ctx: world.ctx,
      input: { email: 'cli@new.test', workspaceId: home.workspaceId },
    });
    expect(byOperator).toMatchObject({ outcome: 'added', emailed: true, setupUrl: null });
  });

  it('Invite of an existing account: the same answer as a new one, and its email carries no set-password link', async () => {
    const fresh = await invite('nina@new.test');
    const existing = await invite('oscar@away.test');
    expect(existing.statusCode).toBe(fresh.statusCode);
    expect(notice(existing.body)!.replace('oscar@away.test', 'X')).toBe(
      notice(fresh.body)!.replace('nina@new.test', 'X'),
    );
    expect(existing.body).not.toMatch(/\/setup\//);
    const sent = await mails(2);
    const toOscar = sent.find((m) => to(m) === 'oscar@away.test')!;
    expect(toOscar.text).toContain('Sign in and accept the invitation');
    expect(toOscar.text).not.toMatch(/\/setup\//);
    expect(toOscar.text).toContain('http://leadscan.test/login');
  });

  it('Forgot password: one answer for known and unknown emails; the link goes to the account’s own address and works once', async () => {
    const login0 = await app.inject({ method: 'GET', url: '/login' });
    expect(login0.body).toContain('href="/forgot-password"');
    const page = await app.inject({ method: 'GET', url: '/forgot-password' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="email"');

    // A reset belongs to no workspace: its time is in the zone of the person's first workspace.
    await world.store.db
      .updateTable('workspaces')
      .set({ time_zone: 'Europe/Paris' })
      .where('id', '=', home.workspaceId)
      .execute();
    const known = await forgot('OLGA@home.test');
    const unknown = await forgot('nobody@home.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(known.body).toContain('If an account exists for that address, we sent a link');

    const sent = await mails(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(1);
    expect(to(sent[0]!)).toBe('olga@home.test');
    expect(sent[0]!.subject).toBe('Reset your Leadscan password');
    expect(sent[0]!.text).toMatch(/until .* \(GMT\+1\)\./);
    const link = SETUP_LINK.exec(sent[0]!.text ?? '')![0];
    const set = await app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: FORM,
      payload: form({ password: 'a new long password', repeat: 'a new long password' }),
    });
    expect(set.statusCode).toBe(303);
    const reuse = await app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: FORM,
      payload: form({ password: 'yet another one', repeat: 'yet another one' }),
    });
    expect(reuse.statusCode).toBe(410);
    expect((await login('olga@home.test')).statusCode).toBe(401);
    await signIn('olga@home.test', 'a new long password');
    // Setting the password ended the sessions of before.
    expect((await get(owner, '/account')).headers.location).toMatch(/^\/login/);
  });

  it('Forgot password: five requests an hour per email send five emails; the sixth the same answer and nothing', async () => {
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await forgot('olga@home.test', `198.51.100.${i + 1}`));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await outboxCount()).toBe(5);
    const sent = await mails(5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(5);
    // Only the latest link works: each new one replaced the one before.
    const links = sent.map((m) => SETUP_LINK.exec(m.text ?? '')![0]);
    expect((await app.inject({ method: 'GET', url: pathOf(links[0]!) })).statusCode).toBe(410);
    expect((await app.inject({ method: 'GET', url: pathOf(links[4]!) })).statusCode).toBe(200);
    clock.advance(HOUR + 1000);
    await forgot('olga@home.test', '198.51.100.50');
    expect(await outboxCount()).toBe(1);
  });

  it('Forgot password: one client address asking for many emails is held to the sign-in limit', async () => {
    for (let i = 0; i < 10; i += 1) await forgot('olga@home.test'.replace('olga', `p${i}`), '192.0.2.1');
    const throttled = await forgot('olga@home.test', '192.0.2.1');
    expect(throttled.statusCode).toBe(200);
    expect(await outboxCount()).toBe(0);
    await forgot('olga@home.test', '192.0.2.2');
    expect(await outboxCount()).toBe(1);
  });

  it('Account: a new email changes only when the link sent to it is opened; then sign-in uses it; the link works once', async () => {
    const olga = await userIdOf('olga@home.test');
    await world.store.db.updateTable('users').set({ email_proven_at: null }).where('id', '=', olga).execute();
    const wrong = await post(owner, '/account/email', {
      newEmail: 'olga@moved.test',
      emailPassword: 'not my password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toMatch(/id="f-emailPassword-error">This is not your current password/);
    expect(await outboxCount()).toBe(0);

    const asked = await post(owner, '/account/email', { newEmail: 'olga@moved.test', emailPassword: PASSWORD });
    expect(asked.statusCode).toBe(303);
    expect((await userRow(olga)).email).toBe('olga@home.test');
    expect((await get(owner, '/account')).body).toContain('Waiting for confirmation');
    const [mail] = await mails(1);
    expect(to(mail!)).toBe('olga@moved.test');
    expect(mail!.subject).toBe('Confirm your new Leadscan email');
    const link = CONFIRM_LINK.exec(mail!.text ?? '')![0];
    // The token is only in the email: the database keeps its hash.
    const stored = await world.store.db.selectFrom('email_changes').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));

    expect((await login('olga@moved.test')).statusCode).toBe(401);
    const confirmPage = await app.inject({ method: 'GET', url: pathOf(link) });
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain('olga@moved.test');
    expect((await userRow(olga)).email).toBe('olga@home.test');

    const confirmed = await app.inject({ method: 'POST', url: pathOf(link), headers: FORM, payload: '' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Email changed');
    const row = await userRow(olga);
    expect(row.email).toBe('olga@moved.test');
    // The link proves the new mailbox, not who set the password: an unproven account stays unproven (docs/security.md).
    expect(row.email_proven_at).toBeNull();
    await signIn('olga@moved.test');
    expect((await login('olga@home.test')).statusCode).toBe(401);

    expect((await app.inject({ method: 'POST', url: pathOf(link), headers: FORM, payload: '' })).statusCode).toBe(410);
    expect((await app.inject({ method: 'GET', url: pathOf(link) })).statusCode).toBe(410);

    const notices = await mails(2);
    const toOld = notices.find((m) => to(m) === 'olga@home.test')!;
    expect(toOld.subject).toBe('Your Leadscan email was changed');
    expect(toOld.text).toContain('olga@moved.test');
  });

  it('Account: an email taken by another account before the link is opened is refused, and nothing changes', async () => {
    await post(owner, '/account/email', { newEmail: 'later@taken.test', emailPassword: PASSWORD });
    const [mail] = await mails(1);
    const link = CONFIRM_LINK.exec(mail!.text ?? '')![0];
    await createUser({ ctx: world.ctx, input: { email: 'later@taken.test', workspaceId: away.workspaceId } });
    const refused = await app.inject({ method: 'POST', url: pathOf(link), headers: FORM, payload: '' });
    expect(refused.statusCode).toBe(409);
    expect((await userRow(await userIdOf('olga@home.test'))).email).toBe('olga@home.test');
  });

  it('Account: the name is saved at once and shows in Members', async () => {
    const empty = await post(owner, '/account/name', { displayName: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(/id="f-displayName-error">Enter a name/);
    const saved = await post(owner, '/account/name', { displayName: 'Olga <Owner>' });
    expect(saved.statusCode).toBe(303);
    const members = await get(owner, `/w/${home.workspaceId}/members`);
    expect(members.body).toContain('Olga &lt;Owner&gt;');
  });

  it('a reset or a confirmation from another site is refused, and nothing is sent or changed', async () => {
    const foreign = await app.inject({
      method: 'POST',
      url: '/forgot-password',
      headers: { ...FORM, origin: 'https://evil.example' },
      payload: form({ email: 'olga@home.test' }),
    });
    expect(foreign.statusCode).toBe(403);
    expect(await outboxCount()).toBe(0);
    await post(owner, '/account/email', { newEmail: 'olga@moved.test', emailPassword: PASSWORD });
    const [mail] = await mails(1);
    const link = CONFIRM_LINK.exec(mail!.text ?? '')![0];
    const crossSite = await app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: { ...FORM, 'sec-fetch-site': 'cross-site' },
      payload: '',
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await userRow(await userIdOf('olga@home.test'))).email).toBe('olga@home.test');
    // A made-up token is refused like a used one.
    const madeUp = await app.inject({
      method: 'POST',
      url: `/confirm-email/${'A'.repeat(43)}`,
      headers: FORM,
      payload: '',
    });
    expect(madeUp.statusCode).toBe(410);
  });
});

describeEachBackend('email for people, with email off', (backend) => {
  let world: TestWorld;
  let app: App;
  let home: Seeded;
  let owner: string;

  beforeEach(async () => {
    world = await createWorld(backend);
    app = await world.app();
    home = await world.seed('Home');
    const created = await createUser({
      ctx: world.ctx,
      input: { email: 'olga@home.test', workspaceId: home.workspaceId, role: 'owner' },
    });
    await setPasswordWithLink({
      ctx: world.ctx,
      input: { token: new URL(created.setupUrl!).pathname.split('/').pop()!, password: PASSWORD },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/login',
      headers: FORM,
      payload: form({ email: 'olga@home.test', password: PASSWORD }),
    });
    owner = String(res.headers['set-cookie']).split(';')[0]!;
  });
  afterEach(async () => {
    await world.close();
  });

  const post = async (url: string, fields: Record<string, string>, pageUrl: string) => {
    const page = await app.inject({ method: 'GET', url: pageUrl, headers: { cookie: owner } });
    return app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie: owner },
      payload: form({ _csrf: csrfOf(page.body), ...fields }),
    });
  };

  it('Invite still shows the one-time link, with the Name saved', async () => {
    const members = `/w/${home.workspaceId}/members`;
    const answer = await post(members, { email: 'nina@new.test', name: 'Nina Newcomb', role: 'member' }, members);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(/http:\/\/leadscan\.test\/setup\/[A-Za-z0-9_-]{43}/);
    expect(answer.body).toContain('Nina Newcomb');
    expect(await world.store.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
  });

  it('Forgot password explains where a new link comes from, and offers no form', async () => {
    const page = await app.inject({ method: 'GET', url: '/forgot-password' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('leadscan user reset-password');
    expect(page.body).not.toContain('name="email"');
    const posted = await app.inject({
      method: 'POST',
      url: '/forgot-password',
      headers: FORM,
      payload: form({ email: 'olga@home.test' }),
    });
    expect(posted.body).toContain('leadscan user reset-password');
    expect(await world.store.db.selectFrom('setup_links').selectAll().where('used_at', 'is', null).execute()).toEqual(
      [],
    );
  });

  it('Account: changing the email is refused with a clear message; the name still changes', async () => {
    const account = await app.inject({ method: 'GET', url: '/account', headers: { cookie: owner } });
    expect(account.body).toContain('email is not set up on this server');
    expect(account.body).not.toContain('name="newEmail"');
    const refused = await post('/account/email', { newEmail: 'olga@moved.test', emailPassword: PASSWORD }, '/account');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Email is not set up on this server');
    expect(await world.store.db.selectFrom('email_changes').selectAll().execute()).toEqual([]);
    expect((await post('/account/name', { displayName: 'Olga O.' }, '/account')).statusCode).toBe(303);
  });

  it('First start: the setup page asks for the owner’s real email and name and saves them with the password', async () => {
    const fresh = await createWorld(backend);
    try {
      const first = await bootstrap({ ctx: fresh.ctx });
      if (!first.created || !first.adminSetup) throw new Error('expected a first start');
      const freshApp = await fresh.app();
      const path = new URL(first.adminSetup.setupUrl).pathname;
      const page = await freshApp.inject({ method: 'GET', url: path });
      expect(page.body).toContain('name="email"');
      expect(page.body).toContain('name="displayName"');
      const missing = await freshApp.inject({
        method: 'POST',
        url: path,
        headers: FORM,
        payload: form({ password: PASSWORD, repeat: PASSWORD }),
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toMatch(/id="f-email-error"/);
      const set = await freshApp.inject({
        method: 'POST',
        url: path,
        headers: FORM,
        payload: form({
          email: 'Ada@Renovations.test',
          displayName: 'Ada Lovelace',
          password: PASSWORD,
          repeat: PASSWORD,
        }),
      });
      expect(set.statusCode).toBe(303);
      const users = await fresh.store.db
        .selectFrom('users')
        .select(['email', 'email_key', 'display_name', 'email_proven_at'])
        .execute();
      expect(users).toEqual([
        {
          email: 'Ada@Renovations.test',
          email_key: 'ada@renovations.test',
          display_name: 'Ada Lovelace',
          email_proven_at: expect.any(String),
        },
      ]);
      const signedIn = await freshApp.inject({
        method: 'POST',
        url: '/login',
        headers: FORM,
        payload: form({ email: 'ada@renovations.test', password: PASSWORD }),
      });
      expect(signedIn.statusCode).toBe(303);
      const old = await freshApp.inject({
        method: 'POST',
        url: '/login',
        headers: FORM,
        payload: form({ email: 'admin@localhost', password: PASSWORD }),
      });
      expect(old.statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  it('an ordinary setup link asks for no email: only the first owner’s does', async () => {
    const created = await createUser({
      ctx: world.ctx,
      input: { email: 'sam@home.test', workspaceId: home.workspaceId },
    });
    const path = new URL(created.setupUrl!).pathname;
    expect((await app.inject({ method: 'GET', url: path })).body).not.toContain('name="email"');
    const set = await app.inject({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: form({ email: 'sam@elsewhere.test', displayName: 'X', password: PASSWORD, repeat: PASSWORD }),
    });
    expect(set.statusCode).toBe(303);
    expect(
      (
        await world.store.db
          .selectFrom('users')
          .select('email')
          .where('email_key', '=', 'sam@home.test')
          .executeTakeFirst()
      )?.email,
    ).toBe('sam@home.test');
  });
});
