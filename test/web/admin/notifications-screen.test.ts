import { afterEach, expect, it } from 'vitest';
import { getNotificationChoices } from '../../../src/domain/notifications/choices.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createAdminFixture, type AdminFixture, type Person } from '../../helpers/admin-security.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { inWorkspace } from '../../../src/domain/context.js';

describeEachBackend('the Notifications screen', (backend) => {
  let world: TestWorld;
  let f: AdminFixture;
  let sink: SmtpSink | undefined;

  async function open(env: Record<string, string> = {}) {
    world = await createWorld(backend, { env });
    f = await createAdminFixture(world);
  }
  afterEach(async () => {
    await world.close();
    await sink?.stop();
    sink = undefined;
  });

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string>, as: Person = f.owner) =>
    f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
    });
  const url = (rest = '') => `/w/${f.home.workspaceId}/notifications${rest}`;
  const choicesOf = (who: Person) =>
    getNotificationChoices({ ctx: inWorkspace(world.ctx, f.home.workspaceId), input: { userId: who.userId } });

  it('with email off: says so, keeps each person’s choices, and offers no test email', async () => {
    await open();
    const page = await get(url());
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Email is off on this server');
    expect(page.body).not.toContain('Send test email');
    // Owners start with each lead, members with none; each saves their own.
    expect(page.body).toMatch(/name="leads" value="each" checked/);
    expect((await get(url(), f.member)).body).toMatch(/name="leads" value="never" checked/);
    const saved = await post(url(), { leads: 'daily', scans: 'never' }, f.member);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${url()}?notice=notifications-saved`);
    expect(await choicesOf(f.member)).toEqual({ leads: 'daily', scans: 'never' });
    expect(await choicesOf(f.owner)).toEqual({ leads: 'each', scans: 'each' });
    const after = await get(`${url()}?notice=notifications-saved`, f.member);
    expect(after.body).toContain('Your email choices are saved.');
    expect(after.body).toMatch(/name="leads" value="daily" checked/);
  });

  it('refuses a choice that is not offered next to the field, and changes nothing', async () => {
    await open();
    const bad = await post(url(), { leads: 'hourly', scans: 'each' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-leads-error">[^<]+/);
    expect(await choicesOf(f.owner)).toEqual({ leads: 'each', scans: 'each' });
  });

  it('with email on: Send test email goes through SMTP at once and the page shows it as the last email sent', async () => {
    sink = await startSmtpSink();
    await open({ SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <leads@leadscan.test>' });
    const page = await get(url());
    expect(page.body).toContain(`on, through 127.0.0.1:${sink.port}`);
    const sent = await post(url('/test'), {});
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain(`A test email went to ${f.owner.email} through 127.0.0.1:${sink.port}`);
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toMatchObject({ text: f.owner.email });
    expect(mail!.subject).toMatch(/test/i);
    const after = await get(url());
    expect(after.body).toMatch(/test email to [^<]*owner/);
  });

  it('with SMTP down: Send test email says why it failed, and the failure shows under Delivery', async () => {
    sink = await startSmtpSink();
    await open({ SMTP_URL: sink.url, MAIL_FROM: 'leads@leadscan.test' });
    await sink.stop();
    const failed = await post(url('/test'), {});
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toContain(
      `The test email to ${f.owner.email} could not be sent through 127.0.0.1:${sink.port}`,
    );
    expect(failed.body).toContain('check SMTP_URL');
    expect(failed.body).toContain('(a test is tried once)');
    // Not retried: with the server back, nothing more arrives and nothing waits.
    await sink.start();
    await deliverDueEmails(world.ctx, { limit: 10 });
    // (The fixture's invitations go out now; the test email is not among them.)
    expect(sink.messages.filter((mail) => /test email/i.test(mail.subject ?? ''))).toEqual([]);
    expect((await get(url())).body).toMatch(/Waiting to be sent<\/dt><dd>nothing/);
  });
});
