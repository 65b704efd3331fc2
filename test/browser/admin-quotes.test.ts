import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { attachScan } from '../../src/domain/scans/attach-scan.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { rectangularRoom } from '../fixtures/roomplan.js';
import { launchChromium } from './chromium.js';
import { inWorkspace } from '../../src/domain/context.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * From a lead with an attached RoomPlan scan to a sent quote in a real browser, clicking only: New quote, tick the
 * rooms and a measured item, Save, Send; the customer's link is shown to copy (email off). Screenshots of the builder
 * and the Quotes screen go to docs/.
 */
describeEachBackend('quotes in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let leadId: string;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Acme Renovations');
    base = await world.listen();
    const lead = await fetch(`${base}/api/intake/${seeded.source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Marie Tremblay',
        email: 'marie@example.com',
        phone: '+1 514-555-0199',
        address: '12 Rue Rachel, Montréal',
      }),
    });
    leadId = ((await lead.json()) as { id: string }).id;
    const rooms = [
      {
        name: 'Kitchen',
        ...rectangularRoom({
          width: 4.2,
          length: 3.1,
          height: 2.45,
          doors: [{ wall: 0, offset: 1, width: 0.82, height: 2.04 }],
        }),
      },
      { name: 'Hall', ...rectangularRoom({ width: 1.5, length: 5, height: 2.45 }) },
    ];
    const upload = await fetch(`${base}/api/scan/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scan-key': seeded.uploadKey },
      body: JSON.stringify({ rooms }),
    });
    expect(upload.status).toBe(200);
    const scan = await world.store.db
      .selectFrom('scans')
      .select('id')
      .where('workspace_id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    await attachScan({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { scanId: scan.id, leadId } });
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: seeded.workspaceId,
        currency: 'CAD',
        locale: 'en-CA',
        taxes: [
          { name: 'GST', rate: '5', onByDefault: true },
          { name: 'QST', rate: '9.975', onByDefault: true },
        ],
      },
    });
    await addPriceListItem({
      ctx: world.ctx,
      input: {
        workspaceId: seeded.workspaceId,
        role: 'owner',
        item: { name: 'Oak flooring, laid', unit: 'm2', price: '64.50', measure: 'floor_area', waste: '10' },
      },
    });
    await addPriceListItem({
      ctx: world.ctx,
      input: {
        workspaceId: seeded.workspaceId,
        role: 'owner',
        item: { name: 'Skirting boards', unit: 'm', price: '12', measure: 'skirting' },
      },
    });
    await addPriceListItem({
      ctx: world.ctx,
      input: {
        workspaceId: seeded.workspaceId,
        role: 'owner',
        item: { name: 'Site visit', unit: 'fixed', price: '90' },
      },
    });
    const owner = await createUser({
      ctx: world.ctx,
      input: { email: 'ann@acme.example', workspaceId: seeded.workspaceId, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
  });

  /** New quote from the lead's page, through the picker: every room ticked, the given measured items ticked. */
  async function newQuote(items: string[], untick: string[] = []) {
    await page.goto(`${base}/w/${seeded.workspaceId}/leads/${leadId}`);
    await page.click('#lead-quotes a:has-text("New quote")');
    await page.waitForURL(/\/leads\/[^/]+\/quotes\/new$/);
    for (const room of untick) await page.uncheck(`.pick-rooms label:has-text("${room}") input`);
    for (const item of items) await page.check(`.pick-items label:has-text("${item}") input`);
    await page.click('#create-quote');
    await page.waitForURL(/\/quotes\/[^/?]+\?notice=quote-created/);
  }
  const lineTexts = () =>
    page.$$eval('.quote-line textarea[name^="line-"]', (els) =>
      els.map((e) => (e as unknown as { value: string }).value),
    );

  it("New quote shows a picker: the scan's rooms all ticked, the measured items to tick; it makes one line per picked room × item", async () => {
    await page.goto(`${base}/w/${seeded.workspaceId}/leads/${leadId}`);
    await page.click('#lead-quotes a:has-text("New quote")');
    await page.waitForURL(/\/quotes\/new$/);
    // Each room with its name and figures, ticked.
    const rooms = await page.$$eval('.pick-rooms label', (els) =>
      els.map(
        (e) =>
          `${(e.querySelector('span')?.firstChild?.textContent ?? '').trim()}:${(e.querySelector('input') as unknown as { checked: boolean }).checked}`,
      ),
    );
    expect(rooms).toEqual(['Kitchen:true', 'Hall:true']);
    // The measured items to price per room, and the one added once, none ticked.
    const items = await page.$$eval('.pick-items label', (els) =>
      els.map(
        (e) =>
          `${(e.textContent ?? '').trim().split(' $')[0]}:${(e.querySelector('input') as unknown as { checked: boolean }).checked}`,
      ),
    );
    expect(items).toEqual(['Oak flooring, laid:false', 'Skirting boards:false', 'Site visit:false']);
    // Items without a room: refused next to the rooms, with the ticks kept.
    await page.uncheck('.pick-rooms label:has-text("Kitchen") input');
    await page.uncheck('.pick-rooms label:has-text("Hall") input');
    await page.check('.pick-items label:has-text("Skirting boards") input');
    await page.click('#create-quote');
    await expect(page.textContent('#f-room-error')).resolves.toContain('Tick the rooms');
    expect(await page.isChecked('.pick-items label:has-text("Skirting boards") input')).toBe(true);
    expect(await page.isChecked('.pick-rooms label:has-text("Hall") input')).toBe(false);
    await page.check('.pick-rooms label:has-text("Hall") input');
    await page.check('.pick-items label:has-text("Oak flooring, laid") input');
    await page.click('#create-quote');
    await page.waitForURL(/\/quotes\/[^/?]+\?notice=quote-created/);
    expect(await page.inputValue('#f-customerName')).toBe('Marie Tremblay');
    expect(await lineTexts()).toEqual(['Oak flooring, laid', 'Skirting boards']);
    // How each quantity was measured is the staff's note beside the line.
    expect(await page.$$eval('.quote-line .source', (els) => els.map((e) => e.textContent))).toEqual([
      'Hall: floor 7.5 m² + 10 % waste',
      expect.stringMatching(/^Hall: skirting [\d.]+ m$/),
    ]);
  });

  it('lead → New quote → rooms and items picked → Send, without typing a measured number', async () => {
    await newQuote(['Oak flooring, laid', 'Skirting boards']);
    expect(await page.inputValue('#f-customerName')).toBe('Marie Tremblay');
    // The draft starts with the picked measured items priced per room of the attached scan.
    const first = await lineTexts();
    expect(first).toHaveLength(4);
    // Add the visit, and the flooring once more for the kitchen only (untick the hall).
    await page.check('label:has-text("Site visit") input');
    await page.check('label:has-text("Oak flooring, laid") input');
    await page.uncheck('.pick-rooms label:has-text("Hall") input');
    await page.click('#add-from-list button[type="submit"]');
    await page.waitForURL(/notice=lines-added/);
    const descriptions = await page.$$eval('.quote-line textarea[name^="line-"]', (els) =>
      els.map((e) => (e as unknown as { value: string }).value),
    );
    // A section a room: the kitchen's new flooring joins the Kitchen's lines; the visit (no room) goes last.
    expect(descriptions).toEqual([
      'Oak flooring, laid',
      'Skirting boards',
      'Oak flooring, laid',
      'Oak flooring, laid',
      'Skirting boards',
      'Site visit',
    ]);
    const notes = await page.$$eval('.quote-line .source', (els) => els.map((e) => e.textContent ?? ''));
    expect(notes.slice(0, 3)).toEqual([
      'Kitchen: floor 13.02 m² + 10 % waste',
      'Kitchen: skirting 13.78 m',
      'Kitchen: floor 13.02 m² + 10 % waste',
    ]);
    expect(notes.slice(3).join('\n')).toContain('Hall');
    await expect(page.textContent('#quote-total')).resolves.toMatch(/^\$[\d,]+\.\d\d$/);
    await page.fill('#f-title', 'Kitchen and hall floors');
    await page.click('button[name="do"][value="save"]');
    await page.waitForURL(/notice=quote-saved/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (backend === 'sqlite')
        await page.screenshot({ path: path.join(DOCS, `quote-builder-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('#send-quote');
    await page.waitForURL(/notice=quote-sent/);
    await expect(page.textContent('#customer-link')).resolves.toMatch(/\/q\/[A-Za-z0-9_-]{20,}$/);
    await expect(page.textContent('h1')).resolves.toContain('Q-0001');
    expect(await page.$('#builder')).toBeNull();
    await page.goto(`${base}/w/${seeded.workspaceId}/quotes`);
    await expect(page.textContent('#quotes')).resolves.toContain('Q-0001');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (backend === 'sqlite') await page.screenshot({ path: path.join(DOCS, `quotes-${width}.png`), fullPage: true });
    }
    await page.goto(`${base}/w/${seeded.workspaceId}/settings/price-list`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (backend === 'sqlite')
        await page.screenshot({ path: path.join(DOCS, `price-list-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the totals follow the typing, and equal what Save computes', async () => {
    const shown = () =>
      page.$$eval('[data-line-amount], #quote-totals dd', (els) =>
        els.map((e) => `${e.id}=${(e.textContent ?? '').trim()}`),
      );
    await newQuote(['Oak flooring, laid', 'Skirting boards']);
    const before = await shown();
    // A quantity with a third decimal (rounded to 2), a price in cents, and the second tax unticked on another line.
    await page.fill('.quote-line[data-line] input[name$="-quantity"] >> nth=0', '2.345');
    await page.fill('.quote-line[data-line] input[name$="-price"] >> nth=0', '19.99');
    await page.uncheck('.quote-line[data-line] input[name$="-tax2"] >> nth=1');
    await page.fill('.quote-line[data-line] input[name$="-price"] >> nth=2', '-7.05');
    const typed = await shown();
    expect(typed[0]).not.toBe(before[0]);
    expect(typed.at(-1)).not.toBe(before.at(-1));
    await page.click('button[name="do"][value="save"]');
    await page.waitForURL(/notice=quote-saved/);
    expect(await shown()).toEqual(typed);
  });

  it('counts the free line in the totals as it is typed, with its own tax ticks, and Save keeps the same totals', async () => {
    const totals = () =>
      page.$$eval('#quote-totals dd', (els) => els.map((e) => `${e.id}=${(e.textContent ?? '').trim()}`));
    const before = await totals();
    // Nothing typed in the free line: it does not count, and shows no amount.
    await page.fill('#f-new-quantity', '3');
    expect(await totals()).toEqual(before);
    await expect(page.textContent('#new-line-amount')).resolves.toBe('');
    await page.fill('#f-new-description', 'Haul away the old floor');
    await expect(page.textContent('#new-line-amount')).resolves.toBe('—');
    await page.fill('#f-new-price', '33.33');
    await page.uncheck('#new-line input[name="new-tax2"]');
    await expect(page.textContent('#new-line-amount')).resolves.toBe('$99.99');
    const typed = await totals();
    expect(typed).not.toEqual(before);
    expect(typed.find((t) => t.startsWith('quote-tax1='))).not.toBe(before.find((t) => t.startsWith('quote-tax1=')));
    expect(typed.find((t) => t.startsWith('quote-tax2='))).toBe(before.find((t) => t.startsWith('quote-tax2=')));
    await page.click('button[name="do"][value="save"]');
    await page.waitForURL(/notice=quote-saved/);
    expect(await totals()).toEqual(typed);
    const added = await page.$$eval('.quote-line textarea[name^="line-"]', (els) =>
      els.map((e) => (e as unknown as { value: string }).value),
    );
    expect(added.at(-1)).toBe('Haul away the old floor');
    const ticks = await page.$$eval('fieldset[data-line^="line-"]', (els) =>
      els.map((e) =>
        [...e.querySelectorAll('input[name*="-tax"]')].map((i) => (i as unknown as { checked: boolean }).checked),
      ),
    );
    expect(ticks.at(-1)).toEqual([true, false]);
  });

  /** The builder's lines in the order shown: each row's id and description. */
  const rowsShown = () =>
    page.$$eval('[data-section] > fieldset[data-line]', (els) =>
      els.map((e) => `${e.id}:${(e.querySelector('textarea') as unknown as { value: string }).value}`),
    );

  it('at 1280 the lines are table rows; a row dragged by its handle, or moved by its keys, saves the order and the edits', async () => {
    await newQuote(['Oak flooring, laid', 'Skirting boards']);
    const before = await rowsShown();
    expect(before).toHaveLength(4);
    // One row a line: the description, quantity, price and the amount side by side, under one row of column names.
    const boxes = await page.$$eval('[data-section] > fieldset[data-line]', (els) =>
      els.map((e) => {
        const top = (selector: string) => e.querySelector(selector)!.getBoundingClientRect().top;
        return {
          height: e.getBoundingClientRect().height,
          spread:
            Math.max(
              ...['textarea', 'input[name$="-quantity"]', 'input[name$="-price"]', '[data-line-amount]'].map(top),
            ) - Math.min(...['textarea', 'input[name$="-quantity"]', 'input[name$="-price"]'].map(top)),
        };
      }),
    );
    for (const box of boxes) {
      expect(box.height).toBeLessThan(80);
      expect(box.spread).toBeLessThan(12);
    }
    expect(await page.isVisible('.lines-head')).toBe(true);
    expect(await page.isVisible('fieldset[data-line] button.move')).toBe(false);
    // The Hall's skirting line, its price retyped, dragged above the Kitchen's first line.
    const hallSkirting = before[3]!.split(':')[0]!;
    const first = before[0]!.split(':')[0]!;
    await page.fill(`#f-${hallSkirting}-price`, '13.25');
    await page.dragAndDrop(`#${hallSkirting} [data-drag]`, `#${first}`, { targetPosition: { x: 300, y: 5 } });
    await page.waitForURL(new RegExp(`moved=${hallSkirting.slice(5)}&notice=quote-saved#${hallSkirting}$`));
    const dragged = await rowsShown();
    expect(dragged).toEqual([before[3], before[0], before[1], before[2]]);
    expect(await page.inputValue(`#f-${hallSkirting}-price`)).toBe('13.25');
    // It joined the Kitchen’s section, is marked as moved, and has the focus for the keys.
    const kitchen = await page.getAttribute('[data-section] >> nth=0', 'id');
    expect(`section-${await page.inputValue(`#f-${hallSkirting}-section`)}`).toBe(kitchen);
    await expect(page.textContent(`#${hallSkirting} .moved-note`)).resolves.toBe('Moved here and saved.');
    expect(await page.$eval(':focus', (e) => e.closest('fieldset')?.id)).toBe(hallSkirting);
    // The same URL again: wait for the page the key's post loads.
    await Promise.all([page.waitForEvent('framenavigated'), page.keyboard.press('ArrowDown')]);
    await page.waitForLoadState();
    expect(await rowsShown()).toEqual([before[0], before[3], before[1], before[2]]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (backend === 'sqlite')
        await page.screenshot({ path: path.join(DOCS, `quote-builder-rows-${width}.png`), fullPage: true });
    }
    // On a phone each line is a card again, the arrows instead of the handle.
    expect(await page.isVisible('.lines-head')).toBe(false);
    expect(await page.isVisible(`#${hallSkirting} [data-drag]`)).toBe(false);
    expect(await page.isVisible(`#${hallSkirting} button.move >> nth=0`)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('without the script the arrows reorder, and the page comes back at the moved line with its notice', async () => {
    const url = page.url().split('?')[0]!;
    const bare = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    try {
      await bare.addCookies(await context.cookies());
      const noScript = await bare.newPage();
      await noScript.goto(url);
      const order = await noScript.$$eval('[data-section] > fieldset[data-line]', (els) => els.map((e) => e.id));
      expect(await noScript.isVisible(`#${order[1]} [data-drag]`)).toBe(false);
      await noScript.click(`#${order[1]} button.move[value^="up:"]`);
      await noScript.waitForURL(new RegExp(`moved=${order[1]!.slice(5)}&notice=quote-saved#${order[1]}$`));
      expect(await noScript.$$eval('[data-section] > fieldset[data-line]', (els) => els.map((e) => e.id))).toEqual([
        order[1],
        order[0],
        ...order.slice(2),
      ]);
      await expect(noScript.textContent('p.notice.ok')).resolves.toContain('Saved');
      await expect(noScript.textContent(`#${order[1]} .moved-note`)).resolves.toBe('Moved here and saved.');
    } finally {
      await bare.close();
    }
  });
});
