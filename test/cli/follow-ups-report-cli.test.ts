import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { quoteReport, type QuoteReport } from '../../src/domain/reports/quote-report.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { reportWorkspace, setClock, threeMonthsOfQuotes, type ReportWorld } from '../domain/reports/report-fixtures.js';
import { quotingWorkspace, sentQuote } from '../web/quote-fixtures.js';

/** A time zone where it is now between 09:00 and 22:00, so a reminder due today is due now, whatever the hour here. */
function zoneInDaytime(): string {
  for (const zone of ['Europe/Paris', 'America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu', 'Asia/Tokyo']) {
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()),
    );
    if (hour >= 9 && hour <= 22) return zone;
  }
  return 'Pacific/Kiritimati';
}

describeEachBackend(
  'leadscan quotes report, jobs run follow-ups and the follow-up settings (spawned CLI)',
  (backend) => {
    let world: TestWorld;
    let clock: TestClock;
    let sink: SmtpSink;
    let env: Record<string, string>;
    let rw: ReportWorld;

    beforeAll(async () => {
      sink = await startSmtpSink();
      clock = new TestClock(Date.parse('2026-07-01T12:00:00Z'));
      world = await createWorld(backend, { clock, env: { SMTP_URL: sink.url, MAIL_FROM: 'quotes@leadscan.test' } });
      env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'http://leadscan.test' };
      rw = await reportWorkspace(world, 'Bright Floors');
      await threeMonthsOfQuotes(world, clock, rw);
    }, 120_000);
    afterAll(async () => {
      await world.close();
      await sink.stop();
    }, 120_000);

    it('prints the same figures as the Report, in the documented shape, and says an empty period is empty', async () => {
      const printed = await cliJson<QuoteReport>(
        ['quotes', 'report', '--workspace', 'Bright Floors', '--from', '2026-08-01', '--to', '2026-10-31'],
        env,
      );
      const report = await quoteReport({ ctx: rw.ctx, input: { from: '2026-08-01', to: '2026-10-31' } });
      expect(printed).toEqual(report);
      expect(Object.keys(printed)).toEqual(
        expect.arrayContaining([
          'sent',
          'accepted',
          'declined',
          'unanswered',
          'winRate',
          'valueSent',
          'valueWon',
          'valuePaid',
          'medianDaysToAnswer',
          'bySource',
          'byCampaign',
        ]),
      );
      expect(Object.keys(printed.bySource[0]!).slice(0, 2)).toEqual(['sourceId', 'name']);
      expect(Object.keys(printed.byCampaign[0]!).slice(0, 2)).toEqual(['utmSource', 'utmCampaign']);
      expect(printed.winRate).toEqual({ ofAnswered: 71, ofSent: 50 });

      const text = await runCli(
        ['quotes', 'report', '--workspace', 'Bright Floors', '--from', '2026-08-01', '--to', '2026-10-31'],
        env,
      );
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('Quotes first sent from 2026-08-01 to 2026-10-31:');
      expect(text.stdout).toContain('sent 10, accepted 5, declined 2, unanswered 3');
      expect(text.stdout).toContain('win rate 71 % of answered, 50 % of sent');
      expect(text.stdout).toContain('value sent 9200.00 CAD, won 3400.00 CAD');
      expect(text.stdout).toContain('also 1 in EUR');
      expect(text.stdout).toMatch(/^Website form +4 +3 +1 +0 +75 % +75 %/m);
      expect(text.stdout).toMatch(/^spring +google +5 /m);
      expect(text.stdout).toMatch(/^\(none\) +\(none\) +2 /m);

      const empty = await runCli(
        ['quotes', 'report', '--workspace', 'Bright Floors', '--from', '2026-01-01', '--to', '2026-01-31'],
        env,
      );
      expect(empty.stdout).toBe('Quotes first sent from 2026-01-01 to 2026-01-31: none.\n');
      // Without a range: the last 3 months of today (this machine's clock), whole months.
      const now = new Date();
      const preset = await cliJson<QuoteReport>(['quotes', 'report', '--workspace', 'Bright Floors'], env);
      expect(preset.to.slice(0, 7)).toBe(
        new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Toronto', year: 'numeric', month: '2-digit' }).format(
          now,
        ),
      );
      expect(preset.byMonth).toHaveLength(3);
      const bad = await runCli(
        ['quotes', 'report', '--workspace', 'Bright Floors', '--to', '2026-01-31', '--json'],
        env,
      );
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
      const badPeriod = await runCli(['quotes', 'report', '--workspace', 'Bright Floors', '--period', 'week'], env);
      expect(badPeriod.code).toBe(1);
    }, 120_000);

    it('sets and shows the follow-up settings, refuses bad ones, and runs the follow-up job now', async () => {
      const ws = await quotingWorkspace(world, 'Chasers');
      // The new sender's invitation goes first, out of the way.
      await deliverDueEmails(world.ctx, { limit: 100 });
      const shown = await cliJson<Record<string, unknown>>(['workspace', 'settings', 'Chasers'], env);
      expect(shown).toMatchObject({ followUpDays: 3, customerReminderDays: [], invoiceReminderDays: [] });
      const set = await cliJson<Record<string, unknown>>(
        [
          'workspace',
          'settings',
          'Chasers',
          '--follow-up-days',
          '2',
          '--customer-reminders',
          '3,7',
          '--invoice-reminders',
          '7,14,30',
          '--time-zone',
          zoneInDaytime(),
        ],
        env,
      );
      expect(set).toMatchObject({ followUpDays: 2, customerReminderDays: [3, 7], invoiceReminderDays: [7, 14, 30] });
      for (const [flag, value] of [
        ['--follow-up-days', '0'],
        ['--follow-up-days', 'soon'],
        ['--customer-reminders', '3,7,9'],
        ['--customer-reminders', '7,3'],
        ['--invoice-reminders', '7,14,30,60'],
        ['--invoice-reminders', '100'],
      ]) {
        const refused = await runCli(['workspace', 'settings', 'Chasers', flag!, value!, '--json'], env);
        expect(refused.code, `${flag} ${value}`).toBe(1);
        expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
      }
      const text = await runCli(['workspace', 'settings', 'Chasers', '--customer-reminders', 'off'], env);
      expect(text.stdout).toContain('follow up after: 2 days');
      expect(text.stdout).toContain('customer reminders: off');
      expect(text.stdout).toContain('invoice reminders: 7,14,30');
      await updateWorkspaceSettings({
        ctx: world.ctx,
        input: { workspaceId: ws.seeded.workspaceId, customerReminders: '3' },
      });

      // A quote sent four days ago (by the real clock, which the spawned CLI reads): it needs a follow-up.
      setClock(clock, new Date(Date.now() - 4 * 86_400_000).toISOString());
      const q = await sentQuote(world, ws, { customer: 'Ada Waiting', email: 'ada@waiting.test' });
      setClock(clock, new Date().toISOString());
      const listed = await cliJson<Array<{ id: string }>>(
        ['quotes', 'list', '--workspace', 'Chasers', '--status', 'needs-follow-up'],
        env,
      );
      expect(listed.map((r) => r.id)).toEqual([q.quoteId]);
      // No server has run here and this shell has no SMTP_URL: email is off, nothing is queued.
      expect(await cliJson(['jobs', 'run', 'follow-ups'], env)).toEqual({
        emailOn: false,
        senderReminders: 0,
        customerReminders: 0,
        invoiceReminders: 0,
      });
      const withEmail = { ...env, SMTP_URL: sink.url, MAIL_FROM: 'quotes@leadscan.test' };
      expect(await cliJson(['jobs', 'run', 'follow-ups'], withEmail)).toEqual({
        emailOn: true,
        senderReminders: 1,
        customerReminders: 1,
        invoiceReminders: 0,
      });
      const again = await runCli(['jobs', 'run', 'follow-ups'], withEmail);
      expect(again.stdout).toBe('Queued 0 sender reminders and 0 customer reminders; the server sends them.\n');
      const unknown = await runCli(['jobs', 'run', 'backups', '--json'], env);
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout)).toMatchObject({ code: 'invalid_arguments' });
      // What the CLI queued, the server's notifier sends.
      sink.messages.length = 0;
      setClock(clock, new Date().toISOString());
      await deliverDueEmails(world.ctx, { limit: 100 });
      const mails = await sink.waitFor(2);
      expect(mails.map((m) => m.subject).sort()).toEqual([
        expect.stringMatching(/^Follow up: quote Q-\d{4} for Ada Waiting has had no answer for 2 days$/),
        expect.stringMatching(/^Reminder: quote Q-\d{4} from Chasers$/),
      ]);
    }, 120_000);
  },
);
