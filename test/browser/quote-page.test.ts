import { quoteCtx } from '../helpers/contexts.js';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { reviseQuote } from '../../src/domain/quotes/revise-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { withdrawQuote } from '../../src/domain/quotes/withdraw-quote.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { quotingWorkspace, sentQuote } from '../web/quote-fixtures.js';
import { launchChromium } from './chromium.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * The customer's page in Chromium at a phone's 390 px and a desktop's 1280 px: the view reported by the page's script,
 * totals following an optional line's tick, accept with the acceptance shown back, decline with a reason, a withdrawn
 * link, a revised quote's link and an accept posted from a page showing the older revision. On SQLite the suite also
 * saves the screenshots in docs/ (390, 1280 and print).
 */
describeEachBackend("the customer's quote page in Chromium", (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let base: string;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    ws = await quotingWorkspace(world, 'Tremblay', { businessName: 'Rénovations Tremblay inc.' });
    base = await world.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const pageAt = async (width: number): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    page.setDefaultTimeout(8000);
    return page;
  };
  const viewCount = async (quoteId: string) =>
    (await getQuote({ ctx: await quoteCtx(world.ctx, quoteId), input: { ref: quoteId } })).viewCount;
  /** The page has no sideways scroll: everything fits the viewport's width. */
  const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  /** A quote as a contractor sends it: a few lines, an optional one, a note and terms. */
  async function fullQuote() {
    const q = await sentQuote(world, ws, {
      scan: true,
      title: 'Kitchen and hall repaint',
      description: 'Prepare walls: fill, sand and prime',
      note: 'Thank you for having us over on Tuesday. We can start the week of December 7.',
      terms: 'Half up front, the rest on completion.\nPrices include materials. Valid for 30 days.',
    });
    return q;
  }

  it('at 390 px: reports the view, follows the optional tick, accepts and shows the acceptance back', async () => {
    const q = await fullQuote();
    const page = await pageAt(390);
    await page.goto(`${base}${q.url}`);
    await expect.poll(() => viewCount(q.quoteId)).toBe(1);
    expect(await fitsWidth(page)).toBe(true);
    const total = page.locator('[data-total]');
    const before = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(await total.textContent()).toBe(formatMoney(before.total, 'CAD', 'en-CA'));
    expect(await page.locator('svg.floor-plan').count()).toBe(2);
    await page.getByLabel('Optional: include this').check();
    await expect.poll(() => total.textContent()).not.toBe(formatMoney(before.total, 'CAD', 'en-CA'));
    const ticked = await total.textContent();
    if (backend === 'sqlite')
      await page.screenshot({ path: path.join(DOCS, 'quote-customer-390.png'), fullPage: true });
    await page.getByLabel('Your full name').fill('Ada Lovelace');
    await page.getByLabel('I accept this quote and its terms').check();
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.waitForSelector('#acceptance');
    const accepted = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(accepted.status).toBe('accepted');
    // The script's total for the ticks is the server's total of the accepted quote.
    expect(ticked).toBe(formatMoney(accepted.total, 'CAD', 'en-CA'));
    expect(accepted.total).toBeGreaterThan(before.total);
    const shown = await page.locator('#acceptance').textContent();
    expect(shown).toContain('Accepted by Ada Lovelace');
    expect(shown).toContain(accepted.acceptanceHash!);
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.locator('form.accept').count()).toBe(0);
    await page.context().close();
  });

  it('at 1280 px: declines with a reason; prints without the forms', async () => {
    const q = await fullQuote();
    const page = await pageAt(1280);
    await page.goto(`${base}${q.url}`);
    if (backend === 'sqlite')
      await page.screenshot({ path: path.join(DOCS, 'quote-customer-1280.png'), fullPage: true });
    // Print media at about an A4 page's width (210 mm at 96 dpi), as the browser's Save as PDF lays it out.
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('form.accept').isVisible()).toBe(false);
    expect(await page.locator('details.decline').isVisible()).toBe(false);
    expect(await page.locator('[data-total]').isVisible()).toBe(true);
    if (backend === 'sqlite')
      await page.screenshot({ path: path.join(DOCS, 'quote-customer-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByText('Decline this quote').click();
    await page.getByLabel('Reason (optional)').fill('We went with another offer.');
    await page.getByRole('button', { name: 'Decline quote' }).click();
    await page.waitForSelector('#declined');
    expect(await page.locator('#declined').textContent()).toContain('We went with another offer.');
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } })).status).toBe(
      'declined',
    );
    await page.context().close();
  });

  it('says a withdrawn link can no longer be answered', async () => {
    const q = await fullQuote();
    await withdrawQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { quoteId: q.quoteId } });
    for (const width of [390, 1280]) {
      const page = await pageAt(width);
      await page.goto(`${base}${q.url}`);
      expect(await page.locator('#withdrawn').textContent()).toContain('Rénovations Tremblay inc. withdrew this quote');
      expect(await page.locator('form.accept').count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);
      await page.context().close();
    }
  });

  it('shows a revised quote on the same link, and refuses an accept from a page showing the older revision', async () => {
    const q = await fullQuote();
    const stale = await pageAt(1280);
    await stale.goto(`${base}${q.url}`);
    const draft = await reviseQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { quoteId: q.quoteId } });
    await addQuoteLine({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, line: { description: 'Hall ceiling', quantity: '7.5', unit: 'm2', price: '4.50' } },
    });
    await sendQuote({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, by: { userId: ws.senderId, label: 'sender' } },
    });

    await stale.getByLabel('Your full name').fill('Ada Lovelace');
    await stale.getByLabel('I accept this quote and its terms').check();
    await stale.getByRole('button', { name: 'Accept quote' }).click();
    await stale.waitForSelector('#refusal');
    expect(await stale.locator('#refusal').textContent()).toContain('This quote was updated');
    expect(await stale.locator('h1').textContent()).toContain('rev 2');
    expect(await stale.locator('table.lines').textContent()).toContain('Hall ceiling');
    // Not answered; the page now showing revision 2 reports its view.
    expect(
      (await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).acceptedAt,
    ).toBeNull();
    await stale.context().close();

    const fresh = await pageAt(390);
    await fresh.goto(`${base}${q.url}`);
    expect(await fresh.locator('#updated').textContent()).toContain('This quote was updated');
    await fresh.getByLabel('Your full name').fill('Ada Lovelace');
    await fresh.getByLabel('I accept this quote and its terms').check();
    await fresh.getByRole('button', { name: 'Accept quote' }).click();
    await fresh.waitForSelector('#acceptance');
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).status).toBe(
      'accepted',
    );
    await fresh.context().close();
  });
});
