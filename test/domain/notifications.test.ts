import { afterEach, beforeEach, expect, it } from 'vitest';
import { setNotificationChoices, getNotificationChoices } from '../../src/domain/notifications/choices.js';
import { outboxStatus } from '../../src/domain/notifications/outbox.js';
import { removeMember } from '../../src/domain/members/remove-member.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { deleteWorkspace } from '../../src/domain/workspaces/delete-workspace.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { startNotifier, type Notifier } from '../../src/jobs/notifier.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const MINUTE = 60_000;

describeEachBackend('email notifications of new leads', (backend) => {
  let sink: SmtpSink;
  let world: TestWorld;
  let clock: TestClock;
  let seeded: Seeded;
  let notifier: Notifier;
  let passErrors: unknown[];

  beforeEach(async () => {
    sink = await startSmtpSink();
    // 2026-03-02T12:00Z: a Monday, noon in UTC.
    clock = new TestClock(Date.parse('2026-03-02T12:00:00.000Z'));
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <leads@leadscan.test>' },
    });
    seeded = await world.seed('Acme Renovations');
    await createUser({
      ctx: world.ctx,
      input: { email: 'owner@acme.test', workspaceId: seeded.workspaceId, role: 'owner' },
    });
    // With email on, adding a person emails them an invitation (test/web/admin/people-email.test.ts); these tests
    // count lead emails only.
    await dropInvitationEmails();
    passErrors = [];
    // No timer: each test runs the passes itself, with the clock where it put it.
    notifier = startNotifier(world.ctx, { onError: (error) => passErrors.push(error) }, { everyMs: 0 });
  });

  afterEach(async () => {
    await notifier.stop();
    expect(passErrors).toEqual([]);
    await world.close();
    await sink.stop();
  });

  async function dropInvitationEmails() {
    await world.store.db.deleteFrom('outbox').where('purpose', '=', 'invite').execute();
  }

  const post = async (payload: Record<string, unknown>) => {
    const app = await world.app();
    const res = await app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, payload });
    expect(res.statusCode).toBe(200);
    return (res.json() as { id: string }).id;
  };

  it('mails an owner each new lead: subject, fields, extra fields, source, link; markup arrives as text', async () => {
    const id = await post({
      name: '<img src=x onerror=alert(1)>',
      email: 'ada@example.com',
      phone: '+1 514-555-0199',
      notes: 'Kitchen\nrefit',
      budget: '<b>20k</b>',
    });
    await notifier.runOnce();
    const [mail] = await sink.waitFor(1);
    expect(mail!.subject).toBe('New lead: <img src=x onerror=alert(1)> (Website form)');
    expect(mail!.to).toMatchObject({ text: 'owner@acme.test' });
    expect(mail!.from?.text).toContain('leads@leadscan.test');
    const htmlPart = String(mail!.html);
    expect(htmlPart).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(htmlPart).not.toContain('<img');
    expect(htmlPart).toContain('&lt;b&gt;20k&lt;/b&gt;');
    expect(htmlPart).toContain(`http://leadscan.test/w/${seeded.workspaceId}/leads/${id}`);
    expect(mail!.text).toContain('Name: <img src=x onerror=alert(1)>');
    expect(mail!.text).toContain('budget: <b>20k</b>');
    expect(mail!.text).toContain('Website form');
    // No IP address or request header reaches the email.
    expect(`${mail!.text}${htmlPart}`).not.toMatch(/127\.0\.0\.1|lightMyRequest|user-agent/i);
    const status = await outboxStatus({ ctx: world.ctx, input: { workspaceId: seeded.workspaceId } });
    expect(status.lastSent).toMatchObject({ purpose: 'leads', to: 'owner@acme.test' });
    expect(status.waiting).toBe(0);
  });

  it('one lead: Reply-To the lead and tap-to-call and mailto links; several leads or an address mail cannot go to: no Reply-To', async () => {
    await post({ name: 'Ada', email: 'ada+roof@example.com', phone: '+1 (514) 555-0199 ext 4' });
    await notifier.runOnce();
    const [one] = await sink.waitFor(1);
    expect(one!.replyTo?.value).toEqual([{ address: 'ada+roof@example.com', name: '' }]);
    const oneHtml = String(one!.html);
    expect(oneHtml).toContain('href="mailto:ada%2Broof@example.com"');
    expect(oneHtml).toContain('href="tel:+15145550199"');

    clock.advance(2 * MINUTE);
    await post({ name: 'Bea', email: 'bea@example.com' });
    await post({ name: 'Cy', email: 'cy@example.com', phone: '12' });
    await notifier.runOnce();
    const [, several] = await sink.waitFor(2);
    expect(several!.subject).toBe('2 new leads in Acme Renovations');
    expect(several!.replyTo).toBeUndefined();
    // Each lead still has its links; a "phone" of two digits gets none.
    expect(String(several!.html)).toContain('href="mailto:bea@example.com"');
    expect(String(several!.html)).not.toContain('tel:');

    clock.advance(2 * MINUTE);
    await post({ name: 'Dee', email: 'dee@example.com, boss@example.com' });
    await notifier.runOnce();
    const [, , invalid] = await sink.waitFor(3);
    expect(invalid!.replyTo).toBeUndefined();
    expect(String(invalid!.html)).not.toContain('mailto:');
    expect(invalid!.text).toContain('Email: dee@example.com, boss@example.com');
  });

  it('SMTP down while 20 leads arrive, then up: every lead announced once, in two emails', async () => {
    await sink.stop();
    const names: string[] = [];
    for (let i = 0; i < 10; i++) names.push(`First ${i}`);
    for (const name of names) await post({ name });
    await notifier.runOnce();
    expect((await outboxStatus({ ctx: world.ctx, input: { workspaceId: null } })).lastFailure).toMatchObject({
      purpose: 'leads',
      gaveUp: false,
    });
    clock.advance(MINUTE + 1000);
    for (let i = 0; i < 10; i++) names.push(`Second ${i}`);
    for (const name of names.slice(10)) await post({ name });
    await notifier.runOnce();
    await notifier.runOnce();
    expect(sink.messages).toHaveLength(0);
    await sink.start();
    clock.advance(10 * MINUTE);
    await notifier.runOnce();
    const mails = await sink.waitFor(2);
    await notifier.runOnce();
    expect(mails).toHaveLength(2);
    const announced = names.filter((name) => mails.some((m) => m.text?.includes(`Name: ${name}\n`)));
    expect(announced).toEqual(names);
    for (const name of names) expect(mails.filter((m) => m.text?.includes(`Name: ${name}\n`))).toHaveLength(1);
    expect(mails.map((m) => m.subject).sort(), JSON.stringify(mails.map((m) => m.subject))).toEqual([
      '10 new leads in Acme Renovations',
      '10 new leads in Acme Renovations',
    ]);
  });

  it("a flood on one source: one look notices all of it, one email counts it and still names the quiet source's lead", async () => {
    const quiet = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: seeded.pipelineId, name: 'Referrals' },
    });
    await notifier.runOnce();
    const app = await world.app();
    const flood = 1_200;
    for (let i = 0; i < flood; i += 100) {
      clock.advance(1);
      await Promise.all(
        Array.from({ length: Math.min(100, flood - i) }, (_, j) =>
          app
            .inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, payload: { name: `Flood ${i + j}` } })
            .then((res) => expect(res.statusCode).toBe(200)),
        ),
      );
    }
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${quiet.token}`,
      payload: { name: 'Real Customer' },
    });
    expect(res.statusCode).toBe(200);
    await notifier.runOnce();
    const [mail] = await sink.waitFor(1);
    expect(mail!.subject).toBe('1,201 new leads in Acme Renovations');
    expect(mail!.text).toContain('Name: Real Customer\n');
    expect(mail!.text!.match(/^Name: Flood /gm)).toHaveLength(50);
    expect(mail!.text).toContain('1,150 more leads from Website form, not listed here');
    expect(await world.ctx.store.db.selectFrom('notification_pending').select('subject_id').execute()).toEqual([]);
    clock.advance(2 * MINUTE);
    await notifier.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toHaveLength(1);
  });

  it('a lead committed behind the mark (its batch was slow) is announced by the next read of the overlap', async () => {
    await notifier.runOnce();
    clock.advance(10_000);
    await post({ name: 'On time' });
    await notifier.runOnce();
    await sink.waitFor(1);
    // Received 5 s before the lead already noticed, committed after it.
    clock.advance(-5_000);
    await post({ name: 'Late commit' });
    clock.advance(5_000);
    clock.advance(2 * MINUTE);
    await notifier.runOnce();
    const mails = await sink.waitFor(2);
    expect(mails[1]!.subject).toBe('New lead: Late commit (Website form)');
  });

  it('members start with no email; "never" gets none; a removed member gets none', async () => {
    const member = await createUser({
      ctx: world.ctx,
      input: { email: 'sam@acme.test', workspaceId: seeded.workspaceId },
    });
    await dropInvitationEmails();
    expect(
      await getNotificationChoices({
        ctx: inWorkspace(world.ctx, seeded.workspaceId),
        input: { userId: member.userId },
      }),
    ).toEqual({ leads: 'never', scans: 'never' });
    await setNotificationChoices({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { userId: member.userId, leads: 'each', scans: 'never' },
    });
    await post({ name: 'One' });
    await notifier.runOnce();
    await sink.waitFor(2);
    expect(sink.messages.map((m) => (m.to as { text: string }).text).sort()).toEqual([
      'owner@acme.test',
      'sam@acme.test',
    ]);

    const owner = (
      await world.ctx.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'owner@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    await setNotificationChoices({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { userId: owner, leads: 'never', scans: 'never' },
    });
    // Within Sam's minute: noticed for Sam, waiting for the next email. Removing Sam drops what was waiting.
    await post({ name: 'Between' });
    await notifier.runOnce();
    const waitingFor = (userId: string) =>
      world.ctx.store.db
        .selectFrom('notification_pending')
        .select('subject_id')
        .where('user_id', '=', userId)
        .execute();
    expect(await waitingFor(member.userId)).toHaveLength(1);
    await removeMember({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { userId: member.userId } });
    expect(await waitingFor(member.userId)).toEqual([]);
    clock.advance(2 * MINUTE);
    await post({ name: 'Two' });
    await notifier.runOnce();
    clock.advance(2 * MINUTE);
    await notifier.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toHaveLength(2);
  });

  it('a new scan is mailed to whoever chose scans, with its room count and a link; "never" for scans gets none', async () => {
    const member = await createUser({
      ctx: world.ctx,
      input: { email: 'sam@acme.test', workspaceId: seeded.workspaceId },
    });
    await dropInvitationEmails();
    await setNotificationChoices({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { userId: member.userId, leads: 'each', scans: 'never' },
    });
    const app = await world.app();
    const upload = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': seeded.uploadKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ rooms: [{ name: '<b>Kitchen</b>' }, { name: 'Hall' }] }),
    });
    expect(upload.statusCode).toBe(200);
    await notifier.runOnce();
    const [mail] = await sink.waitFor(1);
    expect(mail!.subject).toBe('1 new scan in Acme Renovations');
    expect(mail!.to).toMatchObject({ text: 'owner@acme.test' });
    const scanId = (await world.ctx.store.db.selectFrom('scans').select('id').executeTakeFirstOrThrow()).id;
    expect(mail!.text).toContain('Scan with 2 rooms');
    expect(mail!.text).toContain(`http://leadscan.test/w/${seeded.workspaceId}/scans/${scanId}`);
    expect(`${mail!.text}${String(mail!.html)}`).not.toContain(seeded.uploadKey);
    clock.advance(2 * MINUTE);
    await notifier.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toHaveLength(1);
  });

  it('deleting a workspace deletes what the notifier kept about it, its email history included', async () => {
    await post({ name: 'Soon gone' });
    await notifier.runOnce();
    await sink.waitFor(1);
    const rows = async () => {
      const db = world.ctx.store.db;
      const count = async (table: 'notification_pending' | 'notice_cursors' | 'outbox') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('workspace_id', '=', seeded.workspaceId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        cursors: await count('notice_cursors'),
        outbox: await count('outbox'),
        pending: await count('notification_pending'),
      };
    };
    expect(await rows()).toMatchObject({ cursors: 2, outbox: 1 });
    await deleteWorkspace({ ctx: world.ctx, input: { workspaceId: seeded.workspaceId, force: true } });
    expect(await rows()).toEqual({ cursors: 0, outbox: 0, pending: 0 });
  });

  it('the daily summary goes out at 08:00 in the workspace time zone, once, listing the day’s leads', async () => {
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: seeded.workspaceId,
        name: 'Acme Renovations',
        timeZone: 'America/Toronto',
        units: 'metric',
      },
    });
    const owner = (
      await world.ctx.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'owner@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    // Noon UTC is 07:00 in Toronto (EST): the summary starts with today's, at 08:00 local.
    await setNotificationChoices({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { userId: owner, leads: 'daily', scans: 'never' },
    });
    await post({ name: 'Early bird' });
    clock.advance(30 * MINUTE);
    await post({ name: 'Second' });
    await notifier.runOnce();
    expect(sink.messages).toHaveLength(0);
    clock.advance(31 * MINUTE); // 08:01 in Toronto
    await notifier.runOnce();
    const [digest] = await sink.waitFor(1);
    expect(digest!.subject).toBe('Daily summary: 2 new leads in Acme Renovations');
    expect(digest!.text).toContain('Early bird');
    expect(digest!.text).toMatch(/EST/);
    clock.advance(60 * MINUTE);
    await post({ name: 'After the summary' });
    await notifier.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toHaveLength(1);
    clock.advance(23 * 60 * MINUTE); // the next day, past 08:00
    await notifier.runOnce();
    const mails = await sink.waitFor(2);
    expect(mails[1]!.subject).toBe('Daily summary: 1 new lead in Acme Renovations');
    expect(mails[1]!.text).toContain('After the summary');
    expect(mails[1]!.text).not.toContain('Early bird');
  });
});
