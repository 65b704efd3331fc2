import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import crypto from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { quoteJson } from '../../../src/cli/quotes-commands.js';
import { inWorkspace } from '../../../src/domain/context.js';
import type { DocumentRenderer } from '../../../src/domain/document-renderer.js';
import type { DocumentModel } from '../../../src/domain/document-model.js';
import { renderPool } from '../../../src/pdf/render-pool.js';
import { renderDueDocuments } from '../../../src/domain/documents/document-jobs.js';
import { ATTACHMENT_WAIT_MS } from '../../../src/domain/documents/email-attachment.js';
import { formatMoney, rateText } from '../../../src/domain/money.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { erasePerson } from '../../../src/domain/persons/erase-person.js';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';
import { documentDate } from '../../../src/domain/quotes/quote-document.js';
import { quantityText } from '../../../src/domain/line-text.js';
import { customerQuotePdf, quotePdf, quotePdfForCli } from '../../../src/domain/quotes/quote-pdf.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../../src/domain/quotes/update-quote.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { createSession } from '../../../src/domain/auth/sessions.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { pdfPages, pdfText } from '../../helpers/pdf-text.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { quotingWorkspace } from '../../web/quote-fixtures.js';
import { leadOf, scanOf } from './quote-fixtures.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const sha = (bytes: Uint8Array | Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const fold = (text: string) =>
  text
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};

type Workspace = Awaited<ReturnType<typeof quotingWorkspace>>;

/** A quote priced from a scan (two rooms: two plans), a labour line, a discount, an optional line; sent by a person. */
async function sendOne(world: TestWorld, ws: Workspace, options: { email?: boolean; customer?: string } = {}) {
  const ctx = world.ctx;
  const leadId = await leadOf(world, ws.seeded, options.customer ?? 'Ada Lovelace');
  const scanId = await scanOf(world, ws.seeded, leadId);
  const item = await addPriceListItem({
    ctx,
    input: {
      workspaceId: ws.seeded.workspaceId,
      role: 'owner',
      item: {
        name: `Floor sanding ${crypto.randomUUID().slice(0, 6)}`,
        unit: 'm2',
        price: '12.00',
        measure: 'floor_area',
      },
    },
  });
  const draft = await createQuote({
    ctx: await leadCtx(ctx, leadId),
    input: { leadId, scanIds: [scanId], itemIds: [item.id] },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      line: { description: 'Paint the kitchen: two coats', quantity: '8', unit: 'hour', price: '65' },
    },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      line: { description: 'Loyalty discount', quantity: '1', unit: 'fixed', price: '-20', taxes: ['GST'] },
    },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      line: {
        description: 'Ceiling, one coat',
        quantity: '13.02',
        unit: 'm2',
        price: '4.50',
        optional: true,
        chosen: false,
      },
    },
  });
  await updateQuote({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      details: {
        title: 'Floors and kitchen',
        note: 'Thank you for having us over.',
        customerEmail: 'ada@customer.test',
        customerAddress: '12 Analytical Lane\nMontréal QC',
      },
    },
  });
  const sent = await sendQuote({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      by: { userId: ws.senderId, label: 'sender' },
      ...(options.email ? { email: { replyTo: ws.senderEmail, senderName: 'Sam Sender' } } : {}),
    },
  });
  return { quoteId: sent.quote.id, token: sent.token, url: new URL(sent.customerUrl).pathname, leadId };
}

/** A renderer made to fail: the failure path (docs/documents.md, "When rendering fails"). */
const failing: DocumentRenderer = {
  render: () => Promise.reject(new Error('test: the renderer was made to fail')),
  close: () => Promise.resolve(),
};

describeEachBackend('the PDF of a sent quote (docs/documents.md)', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let app: App;
  let ws: Workspace;

  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(NOW);
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
    });
    app = await world.app();
    ws = await quotingWorkspace(world, 'Docs', { businessName: 'Rénovations Łódź-Tremblay' });
  });
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });
  beforeEach(async () => {
    await deliverDueEmails(world.ctx, { limit: 100 });
    sink.messages.length = 0;
  });

  const render = () => renderDueDocuments(world.ctx, { limit: 20 });
  const wctx = () => inWorkspace(world.ctx, ws.seeded.workspaceId);
  async function mails(total: number): Promise<ParsedMail[]> {
    await deliverDueEmails(world.ctx, { limit: 100 });
    return sink.waitFor(total);
  }

  it('is frozen at send and rendered by the job; its text is what the page and `quotes show --json` say', async () => {
    const q = await sendOne(world, ws);
    const before = await quotePdf({ ctx: wctx(), input: { quoteId: q.quoteId } });
    expect(before.state).toBe('pending');
    expect((await render()).map((r) => r.state)).toEqual(['done']);
    const doc = await quotePdf({ ctx: wctx(), input: { quoteId: q.quoteId } });
    expect(doc.state).toBe('done');
    expect(sha(doc.pdf!)).toBe(doc.sha256);
    expect(doc.size).toBe(doc.pdf!.byteLength);

    const json = quoteJson(await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } }));
    expect(doc.fileName).toBe(`${json.number}.pdf`);
    const pages = pdfPages(doc.pdf!);
    const text = pages.join(' ');
    const page = fold((await app.inject({ method: 'GET', url: q.url })).body);
    const locale = 'en-CA';
    const money = (minor: number) => formatMoney(minor, json.currency, locale);
    const shared = [
      'Rénovations Łódź-Tremblay',
      json.number!,
      json.customer.name!,
      '12 Analytical Lane Montréal QC',
      documentDate(json.validUntil, locale),
      ...json.lines.flatMap((l) => [
        l.description,
        quantityText({ unit: l.unit, quantity: Math.round(l.quantity * 100) }, locale),
        money(l.unitPrice),
        money(l.amount),
      ]),
      `Subtotal ${money(json.subtotal)}`,
      ...json.taxes.map((t) => `${t.name} ${rateText(t.rate * 1000)} % ${money(t.amount)}`),
      `Total ${money(json.total)}`,
      'Thank you for having us over.',
      'Half up front, the rest on completion.',
      'Kitchen',
    ];
    for (const value of shared) {
      expect(text, value).toContain(value);
      expect(page, value).toContain(value);
    }
    expect(text).toContain(`Valid until ${documentDate(json.validUntil, locale)}`);
    pages.forEach((p, i) => expect(p).toContain(`${json.number} · page ${i + 1} of ${pages.length}`));
    // The customer's page offers it; its address serves the stored bytes.
    expect((await app.inject({ method: 'GET', url: q.url })).body).toContain('id="download-pdf"');
    const served = await app.inject({ method: 'GET', url: `${q.url}/pdf` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`attachment; filename="${json.number}.pdf"`);
    expect(served.headers['x-robots-tag']).toContain('noindex');
    expect(sha(served.rawPayload)).toBe(doc.sha256);
  });

  it('never changes after a send: settings, logo, units and price list changed, rendered again, after a restart', async () => {
    const q = await sendOne(world, ws);
    await render();
    const first = await quotePdf({ ctx: wctx(), input: { quoteId: q.quoteId } });
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: ws.seeded.workspaceId,
        name: 'Renamed Business',
        businessAddress: 'Somewhere else',
        units: 'imperial',
        locale: 'en-GB',
        taxNumbers: [],
      },
    });
    await world.store.db
      .updateTable('workspaces')
      .set({ paper: 'A4', logo: Buffer.from('not used'), logo_type: 'png', logo_width: 10, logo_height: 10 })
      .where('id', '=', ws.seeded.workspaceId)
      .execute();
    await world.store.db.updateTable('price_list_items').set({ unit_price: 1 }).execute();
    // Rendered again from the frozen model (as **Make PDF again** and the CLI do): the same bytes.
    await world.store.db
      .updateTable('documents')
      .set({ state: 'pending', pdf: null, sha256: null, size: null })
      .where('id', '=', first.id)
      .execute();
    await render();
    const again = await quotePdf({ ctx: wctx(), input: { quoteId: q.quoteId } });
    expect(again.sha256).toBe(first.sha256);
    expect(Buffer.from(again.pdf!).equals(Buffer.from(first.pdf!))).toBe(true);
    expect(pdfText(again.pdf!)).toContain('Rénovations Łódź-Tremblay');
    // As after a restart: a new renderer (fresh threads, fonts read again) renders the frozen row to the same bytes.
    const fresh = renderPool({ threads: 1 });
    try {
      const row = await world.store.db
        .selectFrom('documents')
        .select('model')
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      expect(sha(await fresh.render(JSON.parse(row.model) as DocumentModel))).toBe(first.sha256);
    } finally {
      await fresh.close();
    }
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: ws.seeded.workspaceId,
        name: 'Rénovations Łódź-Tremblay',
        units: 'metric',
        locale: 'en-CA',
      },
    });
    await world.store.db
      .updateTable('workspaces')
      .set({ paper: null, logo: null, logo_type: null })
      .where('id', '=', ws.seeded.workspaceId)
      .execute();
  });

  it('goes with the send email as an attachment; the email waits for the render; its SHA-256 is the served one', async () => {
    const q = await sendOne(world, ws, { email: true });
    // Not rendered yet: the email waits (no attempt counted) rather than going without it.
    expect(await deliverDueEmails(world.ctx, { limit: 100 })).toEqual([expect.objectContaining({ state: 'pending' })]);
    const waiting = await world.store.db
      .selectFrom('outbox')
      .select(['attempts', 'state'])
      .where('purpose', '=', 'quote_sent')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(waiting).toEqual({ attempts: 0, state: 'pending' });
    await render();
    clock.advance(2_000);
    const [mail] = await mails(1);
    const json = quoteJson(await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } }));
    expect(mail!.subject).toBe(`Quote ${json.number} from Rénovations Łódź-Tremblay`);
    expect(mail!.attachments).toHaveLength(1);
    const attachment = mail!.attachments[0]!;
    expect(attachment.filename).toBe(`${json.number}.pdf`);
    expect(attachment.contentType).toBe('application/pdf');
    const served = await app.inject({ method: 'GET', url: `${q.url}/pdf` });
    const stored = await quotePdf({ ctx: wctx(), input: { quoteId: q.quoteId } });
    expect(sha(attachment.content)).toBe(stored.sha256);
    expect(sha(served.rawPayload)).toBe(stored.sha256);
  });

  it('the accepted copy: the page answering the Accept links it at once; it is made after the sent one, with the acceptance page', async () => {
    const q = await sendOne(world, ws, { email: true });
    const body = new URLSearchParams({
      formToken: world.ctx.csrf.tokenFor(`quote-link:${q.token}`),
      do: 'accept',
      revision: '1',
      name: 'Ada Q. Lovelace',
      agreed: 'yes',
      linesShown: '1',
      line: (await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).lines.find(
        (l) => l.optional,
      )!.id,
    });
    const answered = await app.inject({ method: 'POST', url: q.url, headers: FORM, payload: body.toString() });
    expect(answered.statusCode).toBe(303);
    const pageAfter = (await app.inject({ method: 'GET', url: q.url })).body;
    expect(pageAfter).toMatch(/id="accepted-pdf" href="\?pdf=accepted"/);
    expect(pageAfter).not.toContain(q.token);
    // Its stable address answers at once: being prepared, then the PDF.
    const early = await app.inject({ method: 'GET', url: `${q.url}?pdf=accepted` });
    expect(early.statusCode).toBe(202);
    expect(early.headers.refresh).toBe('3');
    expect(early.body).toContain('being prepared');
    await render(); // the sent PDF first: the accepted copy waits for it
    clock.advance(2_000);
    await render();
    const copy = await customerQuotePdf({ ctx: world.ctx, input: { token: q.token, accepted: true } });
    const sent = await customerQuotePdf({ ctx: world.ctx, input: { token: q.token } });
    expect(copy.state).toBe('done');
    const accepted = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(copy.fileName).toBe(`${accepted.number}-accepted.pdf`);
    const pages = pdfPages(copy.pdf!);
    const last = pages.at(-1)!;
    expect(last).toContain('Acceptance');
    expect(last).toContain('Ada Q. Lovelace');
    expect(last).toContain('(UTC)');
    expect(last).toContain('Ceiling, one coat: included');
    expect(last).toContain(accepted.acceptanceHash!);
    expect(last).toContain(sent.sha256!);
    // The ticked optional line counts in the copy's totals, as accepted.
    expect(pages.join(' ')).toContain(`Total ${formatMoney(accepted.total, 'CAD', 'en-CA')}`);
    const late = await app.inject({ method: 'GET', url: `${q.url}/pdf/accepted` });
    expect(late.statusCode).toBe(200);
    expect(sha(late.rawPayload)).toBe(copy.sha256);
    // The send email, the sender's notice and the customer's copy: the last two carry the accepted copy.
    clock.advance(2_000);
    const all = await mails(3);
    const withCopy = all.filter((m) => m.attachments.some((a) => a.filename === copy.fileName));
    expect(withCopy.map((m) => (m.to as { text: string }).text).sort()).toEqual(
      [ws.senderEmail, 'ada@customer.test'].sort(),
    );
    for (const m of withCopy) expect(sha(m.attachments[0]!.content)).toBe(copy.sha256);
    // The staff's page offers both.
    const session = await createSession({ ctx: world.ctx, input: { userId: ws.senderId } });
    const staff = await app.inject({
      method: 'GET',
      url: `/w/${ws.seeded.workspaceId}/quotes/${q.quoteId}`,
      cookies: { leadscan_session: session.sessionId },
    });
    expect(staff.body).toContain(`${accepted.number}.pdf`);
    expect(staff.body).toContain(copy.fileName);
    expect(staff.body).toContain('id="quote-pdf"');
  });

  it('`quotes pdf` refuses a draft (not_sent) and an unaccepted copy (not_accepted); renders what no server rendered', async () => {
    const leadId = await leadOf(world, ws.seeded, 'Draft Person');
    const draft = await createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId } });
    await expect(
      quotePdfForCli({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } }),
    ).rejects.toMatchObject({
      code: 'not_sent',
    });
    const q = await sendOne(world, ws);
    await expect(
      quotePdfForCli({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId, accepted: true } }),
    ).rejects.toMatchObject({
      code: 'not_accepted',
    });
    const doc = await quotePdfForCli({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(doc.state).toBe('done');
    expect(sha(doc.pdf!)).toBe(doc.sha256);
  });

  it('goes with its quote when the person is erased', async () => {
    const q = await sendOne(world, ws, { customer: 'Erin Erasable' });
    await render();
    const lead = await world.store.db
      .selectFrom('leads')
      .select('email')
      .where('id', '=', q.leadId)
      .executeTakeFirstOrThrow();
    expect(
      await world.store.db.selectFrom('documents').select('id').where('quote_id', '=', q.quoteId).execute(),
    ).toHaveLength(1);
    await erasePerson({ ctx: inWorkspace(world.ctx, ws.seeded.workspaceId), input: { email: lead.email! } });
    expect(
      await world.store.db.selectFrom('documents').select('id').where('quote_id', '=', q.quoteId).execute(),
    ).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `${q.url}/pdf` })).statusCode).toBe(404);
  });
});

describeEachBackend('when rendering fails (docs/documents.md, "When rendering fails")', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let ws: Workspace;
  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(NOW);
    world = await createWorld(backend, {
      clock,
      renderer: failing,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
    });
    ws = await quotingWorkspace(world, 'Failing');
  });
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });

  it('three tries, then the email goes with the link only and the staff page says why, with Make PDF again', async () => {
    const q = await sendOne(world, ws, { email: true });
    for (let i = 0; i < 3; i += 1) {
      await renderDueDocuments(world.ctx, { limit: 10 });
      clock.advance(20_000);
    }
    const doc = await quotePdf({ ctx: inWorkspace(world.ctx, ws.seeded.workspaceId), input: { quoteId: q.quoteId } });
    expect(doc).toMatchObject({ state: 'failed', attempts: 3, error: 'test: the renderer was made to fail' });
    await deliverDueEmails(world.ctx, { limit: 10 });
    // The sender's invitation went out too when the workspace was made.
    const mail = (await sink.waitFor(2)).find((m) => m.subject?.startsWith('Quote '));
    expect(mail!.attachments).toEqual([]);
    expect(mail!.text).toContain(q.url);
    const app = await world.app();
    const session = await createSession({ ctx: world.ctx, input: { userId: ws.senderId } });
    const cookies = { leadscan_session: session.sessionId };
    const staff = await app.inject({ method: 'GET', url: `/w/${ws.seeded.workspaceId}/quotes/${q.quoteId}`, cookies });
    expect(staff.body).toContain('the PDF could not be made');
    expect(staff.body).toContain('test: the renderer was made to fail');
    expect(staff.body).toContain('Make PDF again');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(staff.body)![1]!;
    const retried = await app.inject({
      method: 'POST',
      url: `/w/${ws.seeded.workspaceId}/quotes/${q.quoteId}/pdf/retry`,
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://leadscan.test' },
      payload: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(retried.statusCode).toBe(303);
    const again = await quotePdf({ ctx: inWorkspace(world.ctx, ws.seeded.workspaceId), input: { quoteId: q.quoteId } });
    expect(again).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('an email whose render is still due after the bound goes without it', async () => {
    sink.messages.length = 0;
    await sendOne(world, ws, { email: true });
    expect(await deliverDueEmails(world.ctx, { limit: 10 })).toEqual([expect.objectContaining({ state: 'pending' })]);
    clock.advance(ATTACHMENT_WAIT_MS + 1_000);
    await deliverDueEmails(world.ctx, { limit: 10 });
    const [mail] = await sink.waitFor(1);
    expect(mail!.attachments).toEqual([]);
  });
});
