import { quoteCtx } from '../../helpers/contexts.js';
import { renderDueDocuments } from '../../../src/domain/documents/document-jobs.js';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { runFollowUps } from '../../../src/domain/follow-ups/run-follow-ups.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { listQuotes } from '../../../src/domain/quotes/list-quotes.js';
import { reviseQuote } from '../../../src/domain/quotes/revise-quote.js';
import { withdrawQuote } from '../../../src/domain/quotes/withdraw-quote.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { stopFormToken } from '../../../src/web/quote/reminder-stop-routes.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { quotingWorkspace, sentQuote, type SentTestQuote } from '../../web/quote-fixtures.js';
import { setClock } from '../reports/report-fixtures.js';

/** Monday 2 November 2026, 10:00 in Toronto (EST, UTC−5 since 1 November). */
const MONDAY_10 = '2026-11-02T15:00:00.000Z';
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};

describeEachBackend('follow-ups: the sender and customer reminders', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let app: App;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(Date.parse(MONDAY_10));
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
    });
    app = await world.app();
    ws = await quotingWorkspace(world, 'Home', { businessName: 'Rénovations Tremblay' });
  }, 60_000);
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });
  beforeEach(async () => {
    setClock(clock, MONDAY_10);
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, followUpDays: '3', customerReminders: 'off' },
    });
    // Every earlier test's quotes answered or gone: only this test's quotes are open.
    await world.store.writer.write((trx) =>
      trx.updateTable('quotes').set({ status: 'withdrawn' }).where('status', 'in', ['sent', 'viewed']).execute(),
    );
    await deliverDueEmails(world.ctx, { limit: 100 });
    sink.messages.length = 0;
  });

  /** Runs the job at an instant (the clock stays there). */
  const runAt = async (iso: string) => {
    setClock(clock, iso);
    return runFollowUps({ ctx: world.ctx, input: { emailOn: true } });
  };
  /** Sends what the outbox holds and answers the emails that arrived since the last call. */
  let seen = 0;
  async function delivered(): Promise<ParsedMail[]> {
    // A sent quote's emails wait for its PDF (docs/documents.md): render them now, so each goes on the day it is due.
    await renderDueDocuments(world.ctx, { limit: 50 });
    const deliveries = await deliverDueEmails(world.ctx, { limit: 100 });
    const sent = deliveries.filter((d) => d.state === 'sent').length;
    await sink.waitFor(seen + sent);
    const fresh = sink.messages.slice(seen);
    seen = sink.messages.length;
    return fresh;
  }
  beforeEach(() => {
    seen = 0;
  });
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;
  const needsFollowUp = async () =>
    (
      await listQuotes({ ctx: world.ctx, input: { workspaceId: ws.seeded.workspaceId, status: 'needs-follow-up' } })
    ).map((q) => q.id);
  const quote = (texts: Parameters<typeof sentQuote>[2] = {}) => sentQuote(world, ws, texts);
  async function numberOf(q: SentTestQuote) {
    const row = await world.store.db
      .selectFrom('quotes')
      .select('number')
      .where('id', '=', q.quoteId)
      .executeTakeFirstOrThrow();
    return row.number!;
  }

  it('reminds the sender on the day the follow-up days end, from 08:00 in the workspace’s time zone, once', async () => {
    const q = await quote({ customer: 'Ada Lovelace' });
    // Wednesday: two days. Thursday 07:59 in Toronto is 12:59 UTC, past 08:00 in UTC: still too early here.
    expect(await runAt('2026-11-04T15:00:00Z')).toMatchObject({ senderReminders: 0 });
    expect(await needsFollowUp()).toEqual([]);
    expect(await runAt('2026-11-05T12:59:00Z')).toMatchObject({ senderReminders: 0 });
    // The Needs follow-up list counts days only: the quote is on it since Thursday began.
    expect(await needsFollowUp()).toEqual([q.quoteId]);
    expect(await runAt('2026-11-05T13:00:00Z')).toMatchObject({ senderReminders: 1, customerReminders: 0 });
    expect(await runAt('2026-11-05T13:05:00Z')).toMatchObject({ senderReminders: 0 });
    expect(await runAt('2026-11-09T13:05:00Z')).toMatchObject({ senderReminders: 0 });
    const [mail, ...more] = await delivered();
    expect(more).toEqual([]);
    expect(to(mail!)).toBe(ws.senderEmail);
    expect(mail!.subject).toBe(`Follow up: quote ${await numberOf(q)} for Ada Lovelace has had no answer for 3 days`);
    expect(mail!.text).toContain('has not answered quote');
    expect(mail!.text).toContain(`/w/${ws.seeded.workspaceId}/quotes/${q.quoteId}`);
    expect(mail!.text).toContain('quotes?status=needs-follow-up');
    expect(mail!.html).toContain('Open the quote');
    const audit = await world.store.db
      .selectFrom('audit_log')
      .select(['action', 'target_ids', 'details'])
      .where('action', '=', 'quote.follow_up_reminded')
      .where('target_ids', 'like', `%${q.quoteId}%`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details)).toEqual({ revision: 1, days: 3 });
  });

  it('sends the customer the same link again on days 3 and 7, with a stop link, and nothing once off or answered', async () => {
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, followUpDays: 'off', customerReminders: '3,7' },
    });
    const q = await quote({ customer: 'Ada Lovelace', email: 'ada@customer.test' });
    const answered = await quote({ customer: 'Ben Answered', email: 'ben@customer.test' });
    // Ben accepts on day 2: nothing reaches him afterwards.
    setClock(clock, '2026-11-04T18:00:00Z');
    await acceptQuote({ ctx: world.ctx, input: { token: answered.token, revision: 1, name: 'Ben', agreed: true } });
    await delivered();
    expect(await runAt('2026-11-05T12:59:00Z')).toMatchObject({ customerReminders: 0, senderReminders: 0 });
    expect(await runAt('2026-11-05T13:00:00Z')).toMatchObject({ customerReminders: 1, senderReminders: 0 });
    const [first, ...none] = await delivered();
    expect(none).toEqual([]);
    expect(to(first!)).toBe('ada@customer.test');
    expect(first!.subject).toBe(`Reminder: quote ${await numberOf(q)} from Rénovations Tremblay`);
    // The same link as the quote's, never a new document; replies go to the sender.
    expect(first!.text).toContain(`http://leadscan.test${q.url}`);
    expect(first!.attachments).toEqual([]);
    expect((first!.replyTo as { text: string }).text).toBe(ws.senderEmail);
    const stop = /http:\/\/leadscan\.test(\/q\/stop\/[A-Za-z0-9_-]{22})/.exec(first!.text!)![1]!;
    expect(first!.html).toContain(`href="http://leadscan.test${stop}"`);
    // Days 4 to 6: nothing; day 7 from 08:00: the second; then nothing more.
    for (const day of ['2026-11-06', '2026-11-08', '2026-11-09T12:00'])
      expect(await runAt(`${day.length === 10 ? `${day}T15:00` : day}:00Z`)).toMatchObject({ customerReminders: 0 });
    expect(await runAt('2026-11-09T13:00:00Z')).toMatchObject({ customerReminders: 1 });
    expect(await runAt('2026-11-12T15:00:00Z')).toMatchObject({ customerReminders: 0 });
    const second = await delivered();
    expect(second.map(to)).toEqual(['ada@customer.test']);
    expect(second[0]!.text).toContain(`http://leadscan.test${q.url}`);
    // The stop link of the second differs from the first's (each reminder its own token).
    expect(second[0]!.text).not.toContain(stop);
    const reminders = await world.store.db
      .selectFrom('reminders')
      .select(['kind', 'ordinal', 'stop_token_hash'])
      .where('quote_id', '=', q.quoteId)
      .orderBy('ordinal')
      .execute();
    expect(reminders.map((r) => [r.kind, r.ordinal])).toEqual([
      ['quote_customer', 1],
      ['quote_customer', 2],
    ]);
    // Hashed at rest: the token is not in the database.
    expect(reminders.every((r) => /^[0-9a-f]{64}$/.test(r.stop_token_hash!))).toBe(true);
    expect(JSON.stringify(reminders)).not.toContain(stop.slice(8));
  });

  it('sends the customer nothing when customer reminders are off (the default), only the sender', async () => {
    await quote({ customer: 'Cleo Default', email: 'cleo@customer.test' });
    let customer = 0;
    let sender = 0;
    for (let day = 3; day <= 12; day++) {
      const run = await runAt(new Date(Date.parse('2026-11-02T14:00:00Z') + day * 86_400_000).toISOString());
      customer += run.customerReminders;
      sender += run.senderReminders;
    }
    expect([customer, sender]).toEqual([0, 1]);
    expect((await delivered()).map(to)).toEqual([ws.senderEmail]);
  });

  it('stops on a withdraw, a revision, an expiry, and drops a queued reminder answered before it went', async () => {
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, customerReminders: '3,7' },
    });
    const withdrawn = await quote({ customer: 'Withdrawn', email: 'w@customer.test' });
    const revised = await quote({ customer: 'Revised', email: 'r@customer.test' });
    const expiring = await quote({ customer: 'Expiring', email: 'e@customer.test' });
    const late = await quote({ customer: 'Late Answer', email: 'l@customer.test' });
    setClock(clock, '2026-11-03T15:00:00Z');
    await withdrawQuote({ ctx: await quoteCtx(world.ctx, withdrawn.quoteId), input: { quoteId: withdrawn.quoteId } });
    await reviseQuote({ ctx: await quoteCtx(world.ctx, revised.quoteId), input: { quoteId: revised.quoteId } });
    // Expired: valid until Wednesday, so by Thursday it can no longer be answered, nor is it chased.
    await world.store.writer.write((trx) =>
      trx.updateTable('quotes').set({ valid_until: '2026-11-04' }).where('id', '=', expiring.quoteId).execute(),
    );
    const run = await runAt('2026-11-05T13:00:00Z');
    // Only the late one: its sender and its customer.
    expect(run).toMatchObject({ senderReminders: 1, customerReminders: 1 });
    await acceptQuote({ ctx: world.ctx, input: { token: late.token, revision: 1, name: 'Late', agreed: true } });
    const deliveries = await deliverDueEmails(world.ctx, { limit: 100 });
    // Queued before the answer, dropped when its turn came: the two reminders, not the accept's notice and copy.
    const states = await world.store.db
      .selectFrom('outbox')
      .select(['purpose', 'state'])
      .where('purpose', '=', 'follow_up')
      .where(
        'id',
        'in',
        deliveries.map((d) => d.id),
      )
      .execute();
    expect(states.map((s) => s.state)).toEqual(['dropped', 'dropped']);
    expect(
      sink.messages.map((m) => m.subject).filter((s) => s?.includes('Reminder') || s?.includes('Follow up')),
    ).toEqual([]);
    expect(await runAt('2026-11-09T13:00:00Z')).toMatchObject({ senderReminders: 0, customerReminders: 0 });
  });

  it('lists nothing as needing a follow-up and reminds no sender when follow-ups are off', async () => {
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, followUpDays: 'off' },
    });
    await quote({ customer: 'Off' });
    expect(await runAt('2026-11-06T15:00:00Z')).toMatchObject({ senderReminders: 0, customerReminders: 0 });
    expect(await needsFollowUp()).toEqual([]);
    // With email off nothing is queued at all, while the list still works.
    await updateWorkspaceSettings({ ctx: world.ctx, input: { workspaceId: ws.seeded.workspaceId, followUpDays: '3' } });
    setClock(clock, '2026-11-06T15:00:00Z');
    expect(await runFollowUps({ ctx: world.ctx, input: { emailOn: false } })).toEqual({
      emailOn: false,
      senderReminders: 0,
      customerReminders: 0,
      invoiceReminders: 0,
    });
    expect(await needsFollowUp()).toHaveLength(1);
  });

  it('stops a customer’s reminders from the stop link: a page to confirm, a same-origin post, audited', async () => {
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, followUpDays: 'off', customerReminders: '3,7' },
    });
    const q = await quote({ customer: 'Dee Stop', email: 'dee@customer.test' });
    await runAt('2026-11-05T13:00:00Z');
    const [mail] = await delivered();
    const path = /http:\/\/leadscan\.test(\/q\/stop\/[A-Za-z0-9_-]{22})/.exec(mail!.text!)![1]!;
    const token = path.slice('/q/stop/'.length);
    // Fetching the link (a mail scanner does) stops nothing.
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop reminders about quote');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).not.toContain(token);
    const body = `formToken=${encodeURIComponent(stopFormToken(world.ctx, token))}`;
    // Cross-site, or without the token bound to this link: refused, nothing stopped.
    for (const headers of [
      { ...FORM, origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
      { 'content-type': FORM['content-type'], origin: 'null' },
    ]) {
      expect((await app.inject({ method: 'POST', url: path, headers, payload: body })).statusCode).toBe(403);
    }
    expect(
      (await app.inject({ method: 'POST', url: path, headers: FORM, payload: 'formToken=wrong' })).statusCode,
    ).toBe(403);
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('Stop reminders about quote');
    const stopped = await app.inject({ method: 'POST', url: path, headers: FORM, payload: body });
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe(token);
    const after = await app.inject({ method: 'GET', url: path });
    expect(after.body).toContain('Reminders stopped');
    // A second press records nothing more.
    expect((await app.inject({ method: 'POST', url: path, headers: FORM, payload: body })).statusCode).toBe(303);
    expect(await runAt('2026-11-09T13:00:00Z')).toMatchObject({ customerReminders: 0 });
    const audit = await world.store.db
      .selectFrom('audit_log')
      .select('target_ids')
      .where('action', '=', 'quote.reminders_stopped')
      .execute();
    expect(audit.filter((a) => a.target_ids.includes(q.quoteId))).toHaveLength(1);
    // An unknown or malformed link: the same 404.
    for (const url of ['/q/stop/AAAAAAAAAAAAAAAAAAAAAA', '/q/stop/nope'])
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});
