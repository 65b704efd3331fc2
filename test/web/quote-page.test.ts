import { quoteCtx } from '../helpers/contexts.js';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { App } from '../../src/app.js';
import { createSession } from '../../src/domain/auth/sessions.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { renderDueDocuments } from '../../src/domain/documents/document-jobs.js';
import { acceptQuote } from '../../src/domain/quotes/accept-quote.js';
import { acceptanceHash } from '../../src/domain/quotes/acceptance-hash.js';
import { declineQuote } from '../../src/domain/quotes/decline-quote.js';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { recordQuoteView } from '../../src/domain/quotes/record-quote-view.js';
import { reviseQuote } from '../../src/domain/quotes/revise-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../src/domain/quotes/update-quote.js';
import { deleteScan } from '../../src/domain/scans/delete-scan.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { withdrawQuote } from '../../src/domain/quotes/withdraw-quote.js';
import type { SecretBox } from '../../src/domain/secret-box.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { quoteFormToken } from '../../src/web/quote/quote-routes.js';
import { listenWithLog } from '../http/log-capture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { quotingWorkspace, sentQuote, type SentTestQuote } from './quote-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const DAY = 24 * 60 * 60_000;
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};
const MARKUP = '<script>alert(1)</script><b>x</b>&"\'';

describeEachBackend("the customer's quote page /q/{token}", (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let app: App;
  let home: Awaited<ReturnType<typeof quotingWorkspace>>;
  let away: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(NOW);
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
    });
    app = await world.app();
    home = await quotingWorkspace(world, 'Home', { businessName: 'Rénovations Tremblay' });
    away = await quotingWorkspace(world, 'Away');
  });
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });
  beforeEach(async () => {
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    await world.store.db.deleteFrom('sign_in_failures').execute();
    sink.messages.length = 0;
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const post = (
    q: SentTestQuote,
    fields: Record<string, string | string[]>,
    headers: Record<string, string> = FORM,
  ) => {
    const body = new URLSearchParams();
    body.set('formToken', quoteFormToken(world.ctx, q.token));
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return app.inject({ method: 'POST', url: q.url, headers, payload: body.toString() });
  };
  const accept = (q: SentTestQuote, revision = 1, extra: Record<string, string | string[]> = {}) =>
    post(q, {
      do: 'accept',
      revision: String(revision),
      name: 'Ada Lovelace',
      agreed: 'yes',
      linesShown: '1',
      ...extra,
    });
  const decline = (q: SentTestQuote, revision = 1, reason = '') =>
    post(q, { do: 'decline', revision: String(revision), reason });
  const statusOf = async (q: SentTestQuote) =>
    (await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).status;
  async function mails(total: number): Promise<ParsedMail[]> {
    // The server's document job makes the PDFs these emails carry (docs/documents.md).
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    return sink.waitFor(total);
  }
  /** Sends the invitations creating a person queued, and forgets them. */
  async function flushInvitations(count: number) {
    await mails(sink.messages.length + count);
    sink.messages.length = 0;
  }
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

  it('shows the quote as a document: business, number, dates, lines, taxes, total; noindex, no-referrer, a strict CSP', async () => {
    const q = await sentQuote(world, home);
    const res = await get(q.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toContain('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const page = res.body;
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain('Rénovations Tremblay');
    expect(page).toContain('+1 514 555 0100');
    expect(page).toContain('hello@renovations.test');
    expect(page).toContain('GST/HST: 123456789 RT0001');
    const { number } = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(page).toContain(`>${number}</h1>`);
    expect(page).toContain('November 26, 2026'); // the date sent, in en-CA
    expect(page).toContain('December 26, 2026'); // valid until
    // 8 h × $65 − $20 = $500.00; GST 5 % of 500 = 25.00, QST 9.975 % of 520 = 51.87; total 576.87. The optional line
    // (13.02 m² × 4.50 = 58.59) is shown unticked and not counted.
    expect(page).toContain('$520.00');
    expect(page).toContain('$500.00');
    expect(page).toContain('$25.00');
    expect(page).toContain('$51.87');
    expect(page).toContain('$576.87');
    expect(page).toContain('13.02 m²');
    expect(page).toMatch(
      /<input type="checkbox" form="accept" name="line" value="[^"]+"> <span class="screen-only">Optional: include this/,
    );
    expect(page).toContain('Half up front, the rest on completion.');
    expect(page).toContain('I accept this quote and its terms');
    // The token itself is nowhere in the page (the form token is an HMAC of it).
    expect(page).not.toContain(q.token);
    // Showing the page is not a view: only the page's script reports one.
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).viewCount).toBe(
      0,
    );
    expect(page).toContain('data-view=""');
  });

  it('draws the floor plan of each priced room', async () => {
    const q = await sentQuote(world, home, { scan: true });
    const page = (await get(q.url)).body;
    expect(page).toContain('<span class="pre">Floor sanding</span>');
    expect(page).toContain('aria-label="Floor plan of Kitchen"');
    expect(page).toContain('aria-label="Floor plan of Hall"');
    const plain = (await get((await sentQuote(world, home)).url)).body;
    expect(plain).not.toContain('Floor plans');
  });

  it('keeps the plans as they were at the send: a scan re-measured, units changed or the scan deleted change nothing', async () => {
    const q = await sentQuote(world, home, { scan: true });
    const plansOf = (page: string) =>
      page.slice(
        page.indexOf('<section class="plans">'),
        page.indexOf('</section>', page.indexOf('<section class="plans">')),
      );
    const before = plansOf((await get(q.url)).body);
    expect(before).toContain('aria-label="Floor plan of Kitchen"');
    expect(before).toContain('4.20 m');
    const { source } = (
      await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })
    ).lines.find((l) => l.source)!;
    const scanId = source!.scanId;
    // The scan changes under the quote: its figures re-read with other rooms, the workspace's units switched.
    const kept = await world.store.db
      .selectFrom('scan_measurements')
      .select('rooms')
      .where('scan_id', '=', scanId)
      .executeTakeFirstOrThrow();
    const rooms = JSON.parse(kept.rooms) as Array<{ name: string; measurement: { plan: { walls: unknown[] } | null } }>;
    for (const room of rooms) {
      room.name = `Renamed ${room.name}`;
      if (room.measurement.plan) room.measurement.plan.walls = room.measurement.plan.walls.slice(0, 1);
    }
    await world.store.db
      .updateTable('scan_measurements')
      .set({ rooms: JSON.stringify(rooms) })
      .where('scan_id', '=', scanId)
      .execute();
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: home.seeded.workspaceId, units: 'imperial' },
    });
    try {
      expect(plansOf((await get(q.url)).body)).toBe(before);
      await deleteScan({ ctx: inWorkspace(world.ctx, home.seeded.workspaceId), input: { scanId } });
      const after = await get(q.url);
      expect(after.statusCode).toBe(200);
      expect(plansOf(after.body)).toBe(before);
      expect(after.body).toContain('<span class="pre">Floor sanding</span>');
    } finally {
      await updateWorkspaceSettings({
        ctx: world.ctx,
        input: { workspaceId: home.seeded.workspaceId, units: 'metric' },
      });
    }
  });

  it('answers an unknown, malformed or withdrawn-and-erased token with the same 404 page', async () => {
    const unknown = await get('/q/AAAAAAAAAAAAAAAAAAAAAA');
    const malformed = await get('/q/not-a-token');
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(unknown.body).toBe(malformed.body);
    expect(unknown.body).toContain('Quote not found');
    expect(unknown.headers['x-robots-tag']).toContain('noindex');
    const posted = await app.inject({
      method: 'POST',
      url: '/q/AAAAAAAAAAAAAAAAAAAAAA',
      headers: FORM,
      payload: `do=accept&formToken=${quoteFormToken(world.ctx, 'AAAAAAAAAAAAAAAAAAAAAA')}&revision=1&name=x&agreed=yes`,
    });
    expect(posted.statusCode).toBe(404);
    expect(posted.body).toBe(unknown.body);
  });

  it('refuses cross-site posts and posts without the form token bound to this link; the quote stays open', async () => {
    const q = await sentQuote(world, home);
    const other = await sentQuote(world, away);
    const fields = { do: 'accept', revision: '1', name: 'Mallory', agreed: 'yes' };
    const crossOrigin = await post(q, fields, { ...FORM, origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' });
    expect(crossOrigin.statusCode).toBe(403);
    const crossSite = await post(q, fields, { 'content-type': FORM['content-type'], 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    // A form post from a page with no-referrer says Origin: null: it passes only with Sec-Fetch-Site: same-origin.
    const nullOrigin = await post(q, fields, { 'content-type': FORM['content-type'], origin: 'null' });
    expect(nullOrigin.statusCode).toBe(403);
    const nullCrossSite = await post(q, fields, {
      'content-type': FORM['content-type'],
      origin: 'null',
      'sec-fetch-site': 'cross-site',
    });
    expect(nullCrossSite.statusCode).toBe(403);
    const noToken = await app.inject({
      method: 'POST',
      url: q.url,
      headers: FORM,
      payload: new URLSearchParams(fields).toString(),
    });
    expect(noToken.statusCode).toBe(403);
    // Another workspace's link's form token does not open this one.
    const foreign = await app.inject({
      method: 'POST',
      url: q.url,
      headers: FORM,
      payload: new URLSearchParams({ ...fields, formToken: quoteFormToken(world.ctx, other.token) }).toString(),
    });
    expect(foreign.statusCode).toBe(403);
    expect(await statusOf(q)).toBe('sent');
    expect(await statusOf(other)).toBe('sent');
  });

  it('records a view from the page script, emails the sender on the first only, and not for a signed-in member', async () => {
    const q = await sentQuote(world, home);
    // A signed-in member of the quote's workspace: no beacon, and a posted view is not counted.
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: home.senderId } });
    const asMember = await get(q.url, { cookie: `leadscan_session=${sessionId}` });
    expect(asMember.statusCode).toBe(200);
    expect(asMember.body).not.toContain('data-view');
    expect((await post(q, { do: 'view' }, { ...FORM, cookie: `leadscan_session=${sessionId}` })).statusCode).toBe(204);
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).viewCount).toBe(
      0,
    );
    // A member of another workspace is just a visitor here.
    const stranger = await createUser({
      ctx: world.ctx,
      input: { email: 'someone@away.test', workspaceId: away.seeded.workspaceId, role: 'owner' },
    });
    await flushInvitations(1);
    const strangerSession = await createSession({ ctx: world.ctx, input: { userId: stranger.userId } });
    expect((await get(q.url, { cookie: `leadscan_session=${strangerSession.sessionId}` })).body).toContain(
      'data-view=""',
    );
    expect(
      (await post(q, { do: 'view' }, { ...FORM, cookie: `leadscan_session=${strangerSession.sessionId}` })).statusCode,
    ).toBe(204);
    expect((await post(q, { do: 'view' })).statusCode).toBe(204);
    const viewed = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(viewed.status).toBe('viewed');
    expect(viewed.viewCount).toBe(2);
    const [mail] = await mails(1);
    expect(to(mail!)).toBe(home.senderEmail);
    expect(mail!.subject).toBe(`Ada Lovelace opened quote ${viewed.number}`);
    expect(mail!.text).toContain(`/w/${home.seeded.workspaceId}/quotes/${q.quoteId}`);
    // Two views, one email.
    await deliverDueEmails(world.ctx, { limit: 100 });
    expect(sink.messages).toHaveLength(1);
    expect(
      await world.store.db.selectFrom('outbox').select('id').where('state', '=', 'pending').execute(),
    ).toHaveLength(0);
  });

  it('accepts with the typed name and tick, keeps the optional ticks, shows name, time and SHA-256 back, and emails both', async () => {
    const q = await sentQuote(world, home);
    const before = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    const optional = before.lines.find((l) => l.optional)!;
    const missing = await post(q, { do: 'accept', revision: '1', name: '  ', linesShown: '1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Type your full name to accept');
    expect(missing.body).toContain('Tick &quot;I accept this quote and its terms&quot;');
    expect(await statusOf(q)).toBe('sent');

    const res = await accept(q, 1, { name: ' Ada Lovelace ', line: optional.id });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(q.token);
    const accepted = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(accepted).toMatchObject({ status: 'accepted', acceptedName: 'Ada Lovelace' });
    expect(accepted.lines.find((l) => l.optional)!.chosen).toBe(true);
    // The ceiling line (58.59) counted: subtotal 558.59, GST 5 % of 558.59 = 27.93, QST 9.975 % of 578.59 = 57.71.
    expect(accepted.total).toBe(55859 + 2793 + 5771);
    expect(accepted.acceptanceHash).toBe(acceptanceHash(accepted, 2));
    const page = (await get(q.url)).body;
    expect(page).toContain('Accepted by <strong>Ada Lovelace</strong>');
    expect(page).toContain(accepted.acceptanceHash!);
    expect(page).toContain('November 26, 2026');
    expect(page).not.toContain('I accept this quote and its terms');
    expect(page).not.toContain('data-view');

    const sent = await mails(2);
    const sender = sent.find((m) => to(m) === home.senderEmail)!;
    const copy = sent.find((m) => to(m) === 'ada@example.com')!;
    expect(sender.subject).toBe(`Ada Lovelace accepted quote ${accepted.number}`);
    expect(sender.text).toContain(accepted.acceptanceHash!);
    expect(copy.subject).toBe(`Your acceptance of quote ${accepted.number} from Rénovations Tremblay`);
    expect(copy.text).toContain('Accepted by Ada Lovelace');
    expect(copy.text).toContain(accepted.acceptanceHash!);
    expect(copy.text).toContain('Ceiling, one coat');
    expect(copy.text).toContain(q.url);

    // Final: a second accept (or a decline) is refused and changes nothing.
    const again = await accept(q, 1, { name: 'Someone Else' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This quote was already answered');
    expect((await decline(q)).statusCode).toBe(409);
    expect(
      (await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).acceptedName,
    ).toBe('Ada Lovelace');
    // A browser's form post (Origin: null under no-referrer, Sec-Fetch-Site: same-origin) is let through to the verb.
    const browserLike = await accept(q, 1, {});
    expect(browserLike.statusCode).toBe(409);
    const fromBrowser = await post(
      q,
      { do: 'decline', revision: '1' },
      { 'content-type': FORM['content-type'], origin: 'null', 'sec-fetch-site': 'same-origin' },
    );
    expect(fromBrowser.statusCode).toBe(409);
  });

  it('declines with an optional reason, shows it, and emails the sender', async () => {
    const q = await sentQuote(world, home);
    const res = await decline(q, 1, 'We went with a cheaper offer.');
    expect(res.statusCode).toBe(303);
    const declined = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(declined).toMatchObject({ status: 'declined', declineReason: 'We went with a cheaper offer.' });
    const page = (await get(q.url)).body;
    expect(page).toContain('This quote was declined on');
    expect(page).not.toContain('I accept this quote');
    const [mail] = await mails(1);
    expect(to(mail!)).toBe(home.senderEmail);
    expect(mail!.subject).toBe(`Ada Lovelace declined quote ${declined.number}`);
    expect(mail!.text).toContain('Their reason: We went with a cheaper offer.');
    expect((await accept(q)).statusCode).toBe(409);
  });

  it("queues the answer's emails in the answer's own transaction: when they cannot be queued, the answer is not kept", async () => {
    const q = await sentQuote(world, home);
    // The outbox cannot take a row (sealing its payload fails); everything else works.
    const secrets = {
      seal: () => {
        throw new Error('outbox unavailable');
      },
      open: (sealed: string) => world.ctx.secrets.open(sealed),
    } as unknown as SecretBox;
    const broken = { ...world.ctx, secrets };
    const queued = async () =>
      (
        await world.store.db
          .selectFrom('outbox')
          .select('to_address')
          .where('state', '=', 'pending')
          .where('purpose', '=', 'quotes')
          .execute()
      )
        .map((r) => r.to_address)
        .sort();
    await expect(recordQuoteView({ ctx: broken, input: { token: q.token } })).rejects.toThrow(/outbox unavailable/);
    await expect(
      acceptQuote({ ctx: broken, input: { token: q.token, revision: 1, name: 'Ada Lovelace', agreed: true } }),
    ).rejects.toThrow(/outbox unavailable/);
    await expect(declineQuote({ ctx: broken, input: { token: q.token, revision: 1 } })).rejects.toThrow(
      /outbox unavailable/,
    );
    expect(await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).toMatchObject({
      status: 'sent',
      viewCount: 0,
      viewedAt: null,
      acceptedAt: null,
      declinedAt: null,
    });
    expect(await queued()).toEqual([]);
    // The verb itself, with no page around it, queues them together with the answer.
    await acceptQuote({ ctx: world.ctx, input: { token: q.token, revision: 1, name: 'Ada Lovelace', agreed: true } });
    expect(await statusOf(q)).toBe('accepted');
    expect(await queued()).toEqual([home.senderEmail, 'ada@example.com'].sort());
  });

  it('refuses an answer to an older revision with "this quote was updated"; the link shows the latest', async () => {
    const q = await sentQuote(world, home);
    const draft = await reviseQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { quoteId: q.quoteId } });
    await updateQuote({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, details: { note: 'Revised: ceiling included.' } },
    });
    await sendQuote({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, by: { userId: home.senderId, label: 'sender' } },
    });
    const shown = await get(q.url);
    expect(shown.body).toContain('This quote was updated');
    expect(shown.body).toContain(' rev 2</h1>');
    expect(shown.body).toContain('Revised: ceiling included.');
    const stale = await accept(q, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('This quote was updated');
    expect(stale.body).toContain('Please read the version below');
    expect((await decline(q, 1)).statusCode).toBe(409);
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).status).toBe(
      'sent',
    );
    expect((await accept(q, 2)).statusCode).toBe(303);
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).status).toBe(
      'accepted',
    );
  });

  it('says in plain words that a withdrawn or expired link can no longer be answered, and refuses answers', async () => {
    const withdrawn = await sentQuote(world, home);
    await withdrawQuote({ ctx: await quoteCtx(world.ctx, withdrawn.quoteId), input: { quoteId: withdrawn.quoteId } });
    const page = await get(withdrawn.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This quote was withdrawn');
    expect(page.body).toContain('Rénovations Tremblay withdrew this quote');
    expect(page.body).not.toContain('I accept this quote');
    const refused = await accept(withdrawn);
    expect(refused.statusCode).toBe(410);
    expect(refused.body).toContain('The business withdrew this quote');
    expect(await statusOf(withdrawn)).toBe('withdrawn');

    const expiring = await sentQuote(world, home);
    clock.advance(31 * DAY);
    try {
      const expired = await get(expiring.url);
      expect(expired.body).toContain('This quote has expired');
      expect(expired.body).toContain('valid until December 26, 2026');
      expect(expired.body).not.toContain('I accept this quote');
      const late = await accept(expiring);
      expect(late.statusCode).toBe(410);
      expect((await decline(expiring)).statusCode).toBe(410);
      expect(
        await getQuote({ ctx: await quoteCtx(world.ctx, expiring.quoteId), input: { ref: expiring.quoteId } }),
      ).toMatchObject({
        status: 'expired',
        acceptedAt: null,
        declinedAt: null,
      });
    } finally {
      clock.advance(-31 * DAY);
    }
  });

  it('escapes markup in every field on the page and in the emails', async () => {
    const ws = await quotingWorkspace(world, 'Markup', {
      businessName: `Biz ${MARKUP}`,
      address: `Addr ${MARKUP}`,
      taxNumber: `TN ${MARKUP}`,
    });
    const q = await sentQuote(world, ws, {
      customer: `Eve ${MARKUP}`,
      title: `Title ${MARKUP}`,
      description: `Desc ${MARKUP}`,
      note: `Note ${MARKUP}`,
      terms: `Terms ${MARKUP}`,
      email: 'eve@example.com',
    });
    await flushInvitations(1);
    const page = (await get(q.url)).body;
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<b>x</b>');
    for (const label of ['Biz', 'Addr', 'TN', 'Eve', 'Title', 'Desc', 'Note', 'Terms']) {
      expect(page).toContain(`${label} &lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;&quot;&#39;`);
    }
    expect((await post(q, { do: 'view' })).statusCode).toBe(204);
    expect((await accept(q, 1, { name: `Eve ${MARKUP}` })).statusCode).toBe(303);
    const accepted = (await get(q.url)).body;
    expect(accepted).not.toContain('<script>alert');
    expect(accepted).toContain('Accepted by <strong>Eve &lt;script&gt;');
    const sent = await mails(3); // viewed, accepted (sender), the customer's copy
    expect(sent.map(to).sort()).toEqual(['eve@example.com', ws.senderEmail, ws.senderEmail].sort());
    for (const mail of sent) {
      const body = String(mail.html);
      expect(body).not.toContain('<script>alert');
      expect(body).not.toContain('<b>x</b>');
      expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail.subject).not.toContain('\n');
    }
    const copy = sent.find((m) => to(m) === 'eve@example.com')!;
    expect(String(copy.html)).toContain('Desc &lt;script&gt;');
    expect(String(copy.html)).toContain('Biz &lt;script&gt;');
  });

  it('rate-limits answers per address', async () => {
    const q = await sentQuote(world, home);
    for (let i = 0; i < 20; i += 1) {
      expect((await post(q, { do: 'accept', revision: '1', name: '', linesShown: '1' })).statusCode).toBe(400);
    }
    const limited = await accept(q);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Please wait a moment');
    expect(await statusOf(q)).toBe('sent');
  });

  it('keeps the token out of the log', async () => {
    const q = await sentQuote(world, home);
    const logged = await listenWithLog(world);
    try {
      const page = await fetch(`${logged.baseUrl}${q.url}`);
      expect(page.status).toBe(200);
      const answer = await fetch(`${logged.baseUrl}${q.url}`, {
        method: 'POST',
        headers: { 'content-type': FORM['content-type'], origin: logged.baseUrl },
        body: new URLSearchParams({
          do: 'decline',
          revision: '1',
          formToken: quoteFormToken(world.ctx, q.token),
        }).toString(),
        redirect: 'manual',
      });
      expect(answer.status).toBe(303);
      expect(logged.text()).toContain('/q/[redacted]');
      expect(logged.text()).not.toContain(q.token);
    } finally {
      await logged.close();
    }
  });
});
