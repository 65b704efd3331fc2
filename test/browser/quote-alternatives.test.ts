import { quoteCtx } from '../helpers/contexts.js';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { sentWithChoice } from '../web/alternatives-fixtures.js';
import { quotingWorkspace } from '../web/quote-fixtures.js';
import { launchChromium } from './chromium.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * The customer picks an alternative on a 390 px phone: the page's script moves the totals and the deposit to the
 * figures worked by hand (test/web/alternatives-fixtures.ts), then the acceptance keeps the pick. On SQLite it saves
 * docs/quote-alternatives-390.png and docs/quote-alternatives-1280.png.
 */
describeEachBackend('alternatives on the customer’s page in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let base: string;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    ws = await quotingWorkspace(world, 'Floors', { businessName: 'Planchers Gagnon' });
    base = await world.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('at 390 px the pick moves the totals and the deposit, and the acceptance keeps it', async () => {
    const q = await sentWithChoice(world, ws);
    const page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
    page.setDefaultTimeout(8000);
    await page.goto(`${base}${q.url}`);
    const total = page.locator('[data-total]');
    const deposit = page.locator('[data-deposit]');
    expect(await total.textContent()).toBe('$1,609.65');
    expect(await deposit.textContent()).toBe('$482.90');
    // The script hides Update: the totals follow the pick at once.
    expect(await page.locator('[data-update]').isVisible()).toBe(false);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.getByLabel('Laminate').check();
    await expect.poll(() => total.textContent()).toBe('$804.83');
    expect(await deposit.textContent()).toBe('$241.45');
    expect(await page.locator('[data-subtotal]').textContent()).toBe('$700.00');
    if (backend === 'sqlite')
      await page.screenshot({ path: path.join(DOCS, 'quote-alternatives-390.png'), fullPage: true });
    await page.getByLabel('Your full name').fill('Grace Hopper');
    await page.getByLabel('I accept this quote and its terms').check();
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.waitForSelector('#acceptance');
    const accepted = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(accepted.sections.find((s) => s.id === q.laminate)!.chosen).toBe(true);
    expect(accepted).toMatchObject({ status: 'accepted', total: 80483, deposit: { amount: 24145 } });
    expect(await page.locator('[data-total]').textContent()).toBe('$804.83');

    if (backend === 'sqlite') {
      const wide = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      const other = await sentWithChoice(world, ws, 'Ada Lovelace');
      await wide.goto(`${base}${other.url}`);
      await wide.screenshot({ path: path.join(DOCS, 'quote-alternatives-1280.png'), fullPage: true });
    }
  }, 120_000);
});
