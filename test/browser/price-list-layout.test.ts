import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describe } from 'vitest';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

/**
 * The price list at 1280 and 390 px (docs/admin-app.md, "Price list"): on a phone each item's labels sit beside
 * their values without running into the next one ("Measured by" over "Taxes"), Edit and Remove stand apart, and at
 * desktop width "Measured by" shows its longest choice whole. Measured from the boxes Chromium lays out. Set
 * LEADSCAN_SCREENSHOTS=dir to keep the page at both widths.
 */
const SHOTS = process.env.LEADSCAN_SCREENSHOTS;
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the price list laid out in Chromium', () => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld('sqlite', { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Acme Renovations');
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: seeded.workspaceId, currency: 'CAD', taxes: [{ name: 'GST', rate: '5' }] },
    });
    const add = (item: Parameters<typeof addPriceListItem>[0]['input']['item']) =>
      addPriceListItem({ ctx: world.ctx, input: { workspaceId: seeded.workspaceId, role: 'owner', item } });
    await add({ name: 'Oak flooring, laid', unit: 'm2', price: '64.50', measure: 'floor_area', waste: '10' });
    await add({ name: 'Wall paint', unit: 'm2', price: '4.20', measure: 'wall_area_net', coats: '2' });
    base = await world.listen();
    const owner = await createUser({
      ctx: world.ctx,
      input: { email: 'ann@acme.example', workspaceId: seeded.workspaceId, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
    await page.goto(`${base}/w/${seeded.workspaceId}/settings/price-list`);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
  });

  it('390 px: labels never overlap the next line, Edit and Remove stand apart', async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    const row = page.locator('#price-list tbody tr').first();
    // A cell's label is its ::before; the cell's box holds it, so two cells' boxes must not overlap, and a label
    // taller than its cell would reach into the next one.
    // A string run in the page (the tests' own types have no DOM).
    const cells =
      (await page.evaluate(`Array.from(document.querySelectorAll('#price-list tbody tr:first-child td[data-label]')).map((td) => {
      const box = td.getBoundingClientRect();
      const label = getComputedStyle(td, '::before');
      return {
        box: { x: box.x, y: box.y, width: box.width, height: box.height },
        labelHeight: parseFloat(label.height),
        lineHeight: parseFloat(label.lineHeight) || parseFloat(label.fontSize) * 1.5,
        top: parseFloat(label.top),
      };
    })`)) as Array<{ box: Box; labelHeight: number; lineHeight: number; top: number }>;
    expect(cells.length).toBe(4);
    for (const cell of cells) {
      // One line of label, inside its own cell.
      expect(cell.labelHeight).toBeLessThanOrEqual(cell.lineHeight + 1);
      expect(cell.top + cell.labelHeight).toBeLessThanOrEqual(cell.box.height + 1);
    }
    for (let i = 1; i < cells.length; i += 1) expect(overlaps(cells[i - 1]!.box, cells[i]!.box)).toBe(false);
    const edit = await row.getByRole('link', { name: 'Edit' }).boundingBox();
    const remove = await row.getByRole('button', { name: 'Remove' }).boundingBox();
    expect(edit && remove).toBeTruthy();
    const gap = remove!.x - (edit!.x + edit!.width);
    const below = remove!.y - (edit!.y + edit!.height);
    expect(gap >= 6 || below >= 6).toBe(true);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'price-list-390.png'), fullPage: true });
  });

  it('1280 px: "Measured by" shows its longest choice whole', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const fits = (await page.evaluate(`(() => {
      const select = document.querySelector('#f-measure');
      const probe = document.createElement('span');
      probe.style.cssText = 'font: ' + getComputedStyle(select).font + '; white-space: nowrap; position: absolute;';
      document.body.appendChild(probe);
      let widest = 0;
      for (const option of Array.from(select.options)) {
        probe.textContent = option.text;
        widest = Math.max(widest, probe.getBoundingClientRect().width);
      }
      probe.remove();
      return { widest, width: select.clientWidth };
    })()`)) as { widest: number; width: number };
    // Room for the text, the padding and the arrow.
    expect(fits.width - fits.widest).toBeGreaterThanOrEqual(40);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'price-list-1280.png'), fullPage: true });
  });
});
