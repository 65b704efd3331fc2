import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { renderDueDocuments } from '../../src/domain/documents/document-jobs.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { describeEachBackend } from '../helpers/backends.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { acceptedQuote } from '../domain/invoices/invoice-fixtures.js';
import { quotingWorkspace } from '../web/quote-fixtures.js';
import { launchChromium } from './chromium.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * From an accepted quote to a paid job in Chromium, clicking only: the worked example of docs/invoices.md (CAD, GST
 * 5 % and QST 9.975 %, total 1,750.84) with a 30 % deposit → Invoice deposit (525.25) → Send (the email with its PDF
 * through a real SMTP conversation) → the payment recorded → Invoice the rest (1,225.59) → Send → two partial
 * payments (600.00 and 625.59) → paid. Every figure is the hand-computed one. On SQLite it saves the screenshots of
 * the Invoices screen, an invoice's page and the customer's page at 1280 and 390 px in docs/.
 */
describeEachBackend('invoices in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let sink: SmtpSink;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    browser = await launchChromium();
    sink = await startSmtpSink();
    world = await createWorld(backend, {
      env: {
        LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
        SMTP_URL: sink.url,
        MAIL_FROM: 'Leadscan <invoices@leadscan.test>',
      },
    });
    ws = await quotingWorkspace(world, 'Tremblay', { businessName: 'Rénovations Tremblay inc.' });
    base = await world.listen();
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: ws.senderId } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
    await sink?.stop();
  });

  const shot = async (p: Page, name: string) => {
    if (backend === 'sqlite') await p.screenshot({ path: path.join(DOCS, name), fullPage: true });
  };
  const wsPath = () => `${base}/w/${ws.seeded.workspaceId}`;
  /** The email with this subject, once the PDFs are made and the outbox delivered (other emails come too). */
  async function mailTitled(subject: string) {
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    await expect.poll(() => sink.messages.some((m) => m.subject === subject), { timeout: 8000 }).toBe(true);
    return sink.messages.find((m) => m.subject === subject)!;
  }
  async function pay(amount: string) {
    await page.fill('#f-amount', amount);
    await page.selectOption('#f-method', 'bank_transfer');
    await page.fill('#f-reference', `Transfer ${amount}`);
    await page.click('#record-payment-button');
    await page.waitForURL(/notice=payment-recorded/);
  }
  const text = async (selector: string) => ((await page.textContent(selector)) ?? '').trim();

  it('accepted quote with a 30 % deposit → deposit invoice sent with its PDF → paid → the rest → two partial payments → paid', async () => {
    const quote = await acceptedQuote(world, ws, { deposit: '30%' });
    await page.goto(`${wsPath()}/quotes/${quote.quoteId}`);
    expect(await text('#quote-invoices')).toContain('The quote asks a deposit of $525.25');
    await page.click('#invoice-quote button:has-text("Invoice deposit")');
    await page.waitForURL(/\/invoices\/[^/?]+\?notice=invoice-created/);
    const depositUrl = page.url().split('?')[0]!;
    // 30 % × 1,454.30 (GST + QST) = 436.29; 30 % × 75.00 (GST) = 22.50; GST 22.94, QST 43.52.
    expect(await text('#invoice-subtotal')).toBe('$458.79');
    expect(await text('#invoice-total')).toBe('$525.25');
    await page.click('#send-invoice');
    await page.waitForURL(/notice=invoice-sent-email/);
    expect(await text('h1')).toContain('INV-0001');
    expect(await text('#invoice-balance')).toBe('$525.25');

    const sent = await mailTitled('Deposit invoice INV-0001 from Rénovations Tremblay inc.');
    expect((sent.to as { text: string }).text).toBe('ada@customer.test');
    const pdf = sent.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pdf?.filename).toBe('INV-0001.pdf');
    expect(pdf!.content.subarray(0, 5).toString()).toBe('%PDF-');
    const customerUrl = await text('#customer-link');
    expect(String(sent.text)).toContain(customerUrl);

    await pay('525.25');
    expect(await text('#invoice-paid')).toBe('$525.25');
    expect(await text('#invoice-balance')).toBe('$0.00');
    expect(await text('.page-head .status')).toBe('Paid');

    await page.goto(`${wsPath()}/quotes/${quote.quoteId}`);
    await page.click('#invoice-quote button:has-text("Invoice the rest")');
    await page.waitForURL(/notice=invoice-created/);
    // The four lines, less 436.29 (GST + QST) and 22.50 (GST): 1,070.51; GST 53.53; QST 101.55.
    expect(await text('#invoice-subtotal')).toBe('$1,070.51');
    expect(await text('#invoice-total')).toBe('$1,225.59');
    await page.click('#send-invoice');
    await page.waitForURL(/notice=invoice-sent/);
    expect(await text('h1')).toContain('INV-0002');
    await pay('600.00');
    expect(await text('#invoice-balance')).toBe('$625.59');
    expect(await text('.page-head .status')).toBe('Partly paid');
    // One cent more than the balance is refused beside the amount.
    await page.fill('#f-amount', '625.60');
    await page.click('#record-payment-button');
    expect(await text('#f-amount-error')).toBe('At most $625.59, the balance of INV-0002');
    await pay('625.59');
    expect(await text('#invoice-paid')).toBe('$1,225.59');
    expect(await text('#invoice-balance')).toBe('$0.00');
    expect(await text('.page-head .status')).toBe('Paid');
    // The chain: the deposit and the rest add up to the accepted total.
    expect(await text('#invoice-chain')).toMatch(/INV-0001[\s\S]*\$525\.25[\s\S]*INV-0002[\s\S]*\$1,225\.59/);
    await shot(page, 'invoice-1280.png');

    await page.goto(`${wsPath()}/invoices`);
    expect(await text('#outstanding-total')).toBe('$0.00');
    expect(await page.locator('#invoices tbody tr').count()).toBe(2);
    await shot(page, 'invoices-1280.png');

    // The customer's page of the deposit invoice, as a phone shows it; the owner's own look is not counted.
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await phone.goto(`${base}${new URL(customerUrl).pathname}`);
    expect((await phone.textContent('#paid'))?.trim()).toBe('$525.25');
    expect((await phone.textContent('#balance'))?.trim()).toBe('$0.00');
    expect((await phone.textContent('#paid-in-full h2'))?.trim()).toBe('Paid in full');
    expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(phone, 'invoice-customer-390.png');
    await phone.setViewportSize({ width: 1280, height: 900 });
    await shot(phone, 'invoice-customer-1280.png');
    await phone.context().close();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${wsPath()}/invoices`);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(page, 'invoices-390.png');
    await page.goto(depositUrl);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(page, 'invoice-390.png');
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);
});
