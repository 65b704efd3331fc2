import { quoteCtx } from '../helpers/contexts.js';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { leadOf, scanOf } from '../domain/quotes/quote-fixtures.js';
import { quotingWorkspace } from '../web/quote-fixtures.js';
import { launchChromium } from './chromium.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * Issue 47's wording in Chromium at 1280 and 390 px: the New quote picker shows each room with its floor area and
 * walls and offers the call-out fee at once; the builder shows how each quantity was measured; **Preview as the
 * customer**; and the customer's page reads item names and descriptions, units as a customer writes them, a fee as
 * a fee, no estimator's notes. On SQLite the screenshots go to docs/.
 */
describeEachBackend('what the customer reads, in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let base: string;
  let staff: BrowserContext;
  let page: Page;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;
  let leadId: string;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    ws = await quotingWorkspace(world, 'Tremblay', { businessName: 'Rénovations Tremblay inc.' });
    leadId = await leadOf(world, ws.seeded, 'Marie Tremblay');
    await scanOf(world, ws.seeded, leadId);
    const add = (item: Parameters<typeof addPriceListItem>[0]['input']['item']) =>
      addPriceListItem({ ctx: world.ctx, input: { workspaceId: ws.seeded.workspaceId, role: 'owner', item } });
    await add({ name: 'Floor sanding', unit: 'm2', price: '12.00', measure: 'floor_area' });
    await add({ name: 'Painting walls', unit: 'm2', price: '9.50', measure: 'wall_area_net' });
    await add({
      name: 'Wall paint, 10 L tin',
      unit: 'm2',
      price: '48.00',
      measure: 'wall_area_net',
      coats: '2',
      pack: '10',
      customerDescription: 'Washable matt, two coats',
    });
    await add({ name: 'Call-out fee', unit: 'fixed', price: '75' });
    base = await world.listen();
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: ws.senderId } });
    staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await staff.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await staff.newPage();
    page.setDefaultTimeout(8000);
  });
  afterAll(async () => {
    await staff?.close();
    await browser?.close();
    await world?.close();
  });

  const fitsWidth = (p: Page) => p.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
  const shoot = async (p: Page, name: string) => {
    if (backend === 'sqlite') await p.screenshot({ path: path.join(DOCS, name), fullPage: true });
  };
  const texts = (p: Page, selector: string) =>
    p.$$eval(selector, (els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));

  it('the picker: each room with its floor area and walls; the call-out fee pickable at once, without a room', async () => {
    await page.goto(`${base}/w/${ws.seeded.workspaceId}/leads/${leadId}/quotes/new`);
    expect(await texts(page, '.pick-rooms label')).toEqual([
      'Kitchen Floor 13.02 m² · walls 32.78 m²',
      'Hall Floor 7.50 m² · walls 31.85 m²',
    ]);
    expect(await texts(page, 'fieldset.pick-items legend')).toEqual(['Priced by each room', 'Added once']);
    expect(await texts(page, '.pick-once label')).toEqual(['Call-out fee $75.00 / fixed']);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(page)).toBe(true);
      await shoot(page, `quote-picker-${width}.png`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // Only the fee, no room: a draft with the fee.
    await page.uncheck('.pick-rooms label:has-text("Kitchen") input');
    await page.uncheck('.pick-rooms label:has-text("Hall") input');
    await page.check('.pick-once label:has-text("Call-out fee") input');
    await page.click('#create-quote');
    await page.waitForURL(/\/quotes\/[^/?]+\?notice=quote-created/);
    expect(
      await page.$$eval('.quote-line textarea[name^="line-"]', (els) =>
        els.map((e) => (e as unknown as { value: string }).value),
      ),
    ).toEqual(['Call-out fee']);
  });

  it('the builder shows how each quantity was measured; Preview shows the customer’s page, marked; the customer reads it clean', async () => {
    await page.goto(`${base}/w/${ws.seeded.workspaceId}/leads/${leadId}/quotes/new`);
    for (const item of ['Floor sanding', 'Painting walls', 'Wall paint, 10 L tin', 'Call-out fee'])
      await page.check(`.pick-items label:has-text("${item}") input`);
    await page.click('#create-quote');
    await page.waitForURL(/\/quotes\/[^/?]+\?notice=quote-created/);
    const quoteId = new URL(page.url()).pathname.split('/').at(-1)!;
    // The staff's view: each line's note, a pack line's figure in m² (never "each").
    const notes = await texts(page, '.quote-line .source');
    expect(notes).toContain('Kitchen: floor 13.02 m²');
    expect(notes).toContain('Hall: walls (net) 31.85 m²');
    expect(notes).toContain('Walls (net): Kitchen 32.78 m² + Hall 31.85 m² = 64.63 m² × 2 coats = 13 packs of 10 m²');
    expect(notes.join(' ')).not.toContain('each');
    await page.fill('#f-title', 'Floors and walls');

    // Preview saves what the page shows, then shows the customer's page with a banner; Accept does nothing there.
    await page.click('#preview-quote');
    await page.waitForURL(/\/preview$/);
    expect(await page.locator('#preview').textContent()).toContain(
      'This is the page Marie Tremblay sees once you send',
    );
    expect(await page.locator('h2.title').textContent()).toBe('Floors and walls');
    expect(await page.getByRole('button', { name: 'Accept quote' }).isDisabled()).toBe(true);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(page)).toBe(true);
      await shoot(page, `quote-preview-${width}.png`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('#preview-back');
    await page.waitForURL(new RegExp(`/quotes/${quoteId}$`));
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, quoteId), input: { ref: quoteId } })).viewCount).toBe(0);
    await page.click('#send-quote');
    await page.waitForURL(/notice=quote-sent/);
    const link = `${base}${new URL((await page.textContent('#customer-link'))!.trim()).pathname}`;

    // The customer, not signed in.
    for (const width of [390, 1280]) {
      const customer = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await customer.goto(link);
      const rows = await texts(customer, 'table.lines tbody tr td.desc');
      expect(rows).toHaveLength(6);
      expect(rows.some((r) => r.startsWith('Wall paint, 10 L tin Washable matt, two coats'))).toBe(true);
      const body = (await customer.textContent('main'))!;
      for (const jargon of ['packs of', 'waste', 'walls (net)', ' each', 'fixed', 'Kitchen:'])
        expect(body).not.toContain(jargon);
      const fee = customer.locator('table.lines tbody tr', { hasText: 'Call-out fee' });
      expect(await fee.locator('.line-qty').count()).toBe(0);
      expect((await fee.locator('td.col-qty').textContent())!.trim()).toBe('');
      expect((await fee.locator('td.amount').textContent())!.trim()).toBe('$75.00');
      const sanding = customer.locator('table.lines tbody tr', { hasText: 'Floor sanding' }).first();
      if (width === 390) {
        expect(await sanding.locator('.line-qty').isVisible()).toBe(true);
        expect((await sanding.locator('.line-qty').textContent())!.trim()).toBe('13.02 m² × $12.00');
      } else {
        expect((await sanding.locator('td.col-qty').textContent())!.trim()).toBe('13.02 m²');
      }
      const tins = customer.locator('table.lines tbody tr', { hasText: 'Wall paint' });
      expect((await tins.locator(width === 390 ? '.line-qty' : 'td.col-qty').textContent())!.trim()).toBe(
        width === 390 ? '13 × $48.00' : '13',
      );
      expect(await fitsWidth(customer)).toBe(true);
      await shoot(customer, `quote-lines-${width}.png`);
      await customer.context().close();
    }
  });
});
