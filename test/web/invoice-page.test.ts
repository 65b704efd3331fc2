import { pdfInfo, pdfText } from '../helpers/pdf-text.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { App } from '../../src/app.js';
import { inWorkspace } from '../../src/domain/context.js';
import { renderDueDocuments } from '../../src/domain/documents/document-jobs.js';
import { addInvoiceLine } from '../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../src/domain/invoices/create-blank-invoice.js';
import { recordPayment } from '../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../src/domain/invoices/send-invoice.js';
import { updateInvoice } from '../../src/domain/invoices/update-invoice.js';
import { voidInvoice } from '../../src/domain/invoices/void-invoice.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { invoiceFormToken } from '../../src/web/invoice/invoice-routes.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { leadOf } from '../domain/quotes/quote-fixtures.js';
import { quotingWorkspace } from './quote-fixtures.js';
import { acceptedQuote } from '../domain/invoices/invoice-fixtures.js';
import { createInvoiceFromQuote } from '../../src/domain/invoices/create-invoice-from-quote.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};
const MARKUP = '<script>alert(1)</script><b>x</b>&"\'';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;&quot;&#39;';

describeEachBackend("the customer's invoice page /i/{token}", (backend) => {
  let world: TestWorld;
  let sink: SmtpSink;
  let app: App;
  let home: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    world = await createWorld(backend, {
      clock: new TestClock(NOW),
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <invoices@leadscan.test>' },
    });
    app = await world.app();
    home = await quotingWorkspace(world, 'Home', { businessName: `Home ${MARKUP}` });
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: home.seeded.workspaceId,
        paymentInstructions: `Bank transfer to ${MARKUP}`,
        businessAddress: '1 Main St, Montréal',
        businessPhone: '+1 514-555-0100',
      },
    });
  });
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });

  /** A sent invoice of 100.00 + GST 5 % + QST 9.975 % = 114.98, every text of it markup. */
  async function sent() {
    const ctx = inWorkspace(world.ctx, home.seeded.workspaceId);
    const leadId = await leadOf(world, home.seeded, 'Ada Lovelace');
    const draft = await createBlankInvoice({ ctx, input: { leadId } });
    await addInvoiceLine({
      ctx,
      input: {
        invoiceId: draft.id,
        line: { description: `Oak ${MARKUP}`, quantity: '1', unit: 'fixed', price: '100', taxes: ['GST', 'QST'] },
      },
    });
    await updateInvoice({
      ctx,
      input: {
        invoiceId: draft.id,
        details: {
          title: `Title ${MARKUP}`,
          note: `Note ${MARKUP}`,
          customerName: `Ada ${MARKUP}`,
          customerAddress: `Street ${MARKUP}`,
          customerEmail: 'ada@customer.test',
          sendMessage: `Thanks for choosing us ${MARKUP}`,
        },
      },
    });
    const result = await sendInvoice({
      ctx,
      input: {
        invoiceId: draft.id,
        by: { userId: home.senderId },
        email: { replyTo: home.senderEmail, senderName: 'Sender' },
      },
    });
    return { ctx, id: draft.id, token: result.token, path: `/i/${result.token}` };
  }

  it('shows the invoice: totals, paid and balance, payment instructions, every value escaped in the page and the email; noindex, no-referrer; the view counted once shown', async () => {
    const inv = await sent();
    const res = await app.inject({ method: 'GET', url: inv.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toContain('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<b>x</b>');
    for (const text of ['Oak', 'Title', 'Note', 'Ada', 'Street', 'Bank transfer to', 'Home'])
      expect(res.body).toContain(`${text} ${ESCAPED}`);
    expect(res.body).toMatch(/<td id="total">\$114\.98<\/td>/);
    expect(res.body).toMatch(/<td id="paid">\$0\.00<\/td>/);
    expect(res.body).toMatch(/<td id="balance">\$114\.98<\/td>/);
    expect(res.body).toContain('data-view=""');
    expect(res.body).not.toContain(inv.token);

    await recordPayment({
      ctx: inv.ctx,
      input: { invoiceId: inv.id, payment: { amount: '14.98', date: '2026-11-25', method: 'card', reference: MARKUP } },
    });
    const partly = await app.inject({ method: 'GET', url: inv.path });
    expect(partly.body).toMatch(/<td id="paid">\$14\.98<\/td>/);
    expect(partly.body).toMatch(/<td id="balance">\$100\.00<\/td>/);
    expect(partly.body).toContain(`(${ESCAPED})`);

    // The email: the PDF rendered, then sent; every value escaped in its HTML.
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    const mails: ParsedMail[] = await sink.waitFor(2);
    const invoiceMail = mails.find((m) => (m.subject ?? '').startsWith('Invoice'))!;
    expect(invoiceMail.html).not.toContain('<script>alert(1)');
    expect(invoiceMail.attachments.map((a) => a.contentType)).toContain('application/pdf');
    expect(String(invoiceMail.html)).toContain(inv.path);
    // The sender's words after the greeting, escaped; the business's address and phone under it; never on the page.
    expect(String(invoiceMail.html)).toContain(`id="sender-message">Thanks for choosing us ${ESCAPED}</p>`);
    expect(invoiceMail.text).toContain(`Hello Ada ${MARKUP},\n\nThanks for choosing us ${MARKUP}\n\nSender of`);
    expect(invoiceMail.text).toContain(`\n\nHome ${MARKUP}\n1 Main St, Montréal\n+1 514-555-0100\n`);
    expect(res.body).not.toContain('Thanks for choosing us');

    const pdf = await app.inject({ method: 'GET', url: `${inv.path}?pdf=1` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // In the PDF the markup is text, printed as typed, never interpreted: every field, and no script in the file.
    const printed = pdfText(pdf.rawPayload);
    for (const text of ['Oak', 'Title', 'Note', 'Ada', 'Street', 'Bank transfer to', 'Home'])
      expect(printed).toContain(`${text} <script>alert(1)</script><b>x</b>&"'`);
    expect(pdfInfo(pdf.rawPayload).JavaScript).toBe('no');
    expect((await app.inject({ method: 'GET', url: inv.path })).body).toContain('id="download-pdf" href="?pdf=1"');

    const viewCount = async () =>
      Number(
        (
          await world.store.db
            .selectFrom('invoices')
            .select('view_count')
            .where('id', '=', inv.id)
            .executeTakeFirstOrThrow()
        ).view_count,
      );
    const forged = await app.inject({
      method: 'POST',
      url: inv.path,
      headers: FORM,
      payload: 'do=view&formToken=nope',
    });
    expect(forged.statusCode).toBe(403);
    const crossSite = await app.inject({
      method: 'POST',
      url: inv.path,
      headers: { ...FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: `do=view&formToken=${encodeURIComponent(invoiceFormToken(world.ctx, inv.token))}`,
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await viewCount()).toBe(0);
    const view = await app.inject({
      method: 'POST',
      url: inv.path,
      headers: FORM,
      payload: `do=view&formToken=${encodeURIComponent(invoiceFormToken(world.ctx, inv.token))}`,
    });
    expect(view.statusCode).toBe(204);
    expect(await viewCount()).toBe(1);
  });

  it('a guessed, malformed or draft link is 404 with one page; a void invoice says so with its reason', async () => {
    const inv = await sent();
    const notFound = async (url: string) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Invoice not found');
      expect(res.headers['x-robots-tag']).toContain('noindex');
    };
    await notFound(`/i/${'A'.repeat(22)}`);
    await notFound(`/i/${inv.token.slice(0, -1)}${inv.token.endsWith('A') ? 'B' : 'A'}`);
    await notFound('/i/not-a-token');
    await notFound(`/i/${'A'.repeat(22)}?pdf=1`);
    await voidInvoice({ ctx: inv.ctx, input: { invoiceId: inv.id, reason: `Twice ${MARKUP}` } });
    const voided = await app.inject({ method: 'GET', url: inv.path });
    expect(voided.statusCode).toBe(200);
    expect(voided.body).toContain('This invoice is void');
    expect(voided.body).toContain(`Twice ${ESCAPED}`);
    expect(voided.body).not.toContain('data-view=""');
  });

  it("the customer's quote link lists the invoices sent from it, each linked to its own page; a draft is not listed", async () => {
    const quote = await acceptedQuote(world, home, { deposit: '30%', customer: 'Grace Hopper' });
    const ctx = inWorkspace(world.ctx, home.seeded.workspaceId);
    const before = await app.inject({ method: 'GET', url: `/q/${quote.token}` });
    expect(before.statusCode).toBe(200);
    expect(before.body).not.toContain('id="invoices"');
    const deposit = await createInvoiceFromQuote({ ctx, input: { quoteId: quote.quoteId, kind: 'deposit' } });
    expect((await app.inject({ method: 'GET', url: `/q/${quote.token}` })).body).not.toContain('id="invoices"');
    const result = await sendInvoice({ ctx, input: { invoiceId: deposit.id, by: { userId: home.senderId } } });
    const page = await app.inject({ method: 'GET', url: `/q/${quote.token}` });
    expect(page.body).toContain('id="invoices"');
    expect(page.body).toContain(
      `<a href="http://leadscan.test/i/${result.token}">Deposit invoice ${result.invoice.number}</a>`,
    );
    const rest = await createInvoiceFromQuote({ ctx, input: { quoteId: quote.quoteId, kind: 'final' } });
    const withDraft = await app.inject({ method: 'GET', url: `/q/${quote.token}` });
    expect(withDraft.body.match(/<li><a href="http:\/\/leadscan\.test\/i\//g)).toHaveLength(1);
    expect(rest.status).toBe('draft');
  });
});
