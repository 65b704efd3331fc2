import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { rectangularRoom } from '../fixtures/roomplan.js';
import { launchChromium } from './chromium.js';

/**
 * A contractor's job in a real browser: a scan uploaded by a RoomPlan app, opened on its page (figures, totals, a
 * plan per room), attached to the customer's lead and seen there, shown in imperial units after a settings change,
 * and its measurements CSV read back into the page's numbers. The page fits 1280 and 390 px without sideways
 * scrolling; set LEADSCAN_SCREENSHOTS=dir to keep it at both widths (docs/scan-1280.png, docs/scan-390.png).
 */
const SHOTS = process.env.LEADSCAN_SCREENSHOTS;
describeEachBackend('measured scans in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Acme Renovations');
    base = await world.listen();
    const lead = await fetch(`${base}/api/intake/${seeded.source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Marie Tremblay', phone: '+1 514-555-0199', notes: 'Kitchen and hall floors' }),
    });
    expect(lead.status).toBe(200);
    const rooms = [
      {
        name: 'Kitchen',
        ...rectangularRoom({
          width: 4.2,
          length: 3.1,
          height: 2.45,
          yaw: 0.2,
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
    const owner = await createUser({
      ctx: world.ctx,
      input: { email: 'ann@acme.example', workspaceId: seeded.workspaceId, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    // A step that cannot happen fails in seconds with its own message, not at the test's time limit.
    page.setDefaultTimeout(8_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
  });

  it('figures and plans, attached to the lead, imperial units, and a CSV with the page’s numbers', async () => {
    await page.goto(`${base}/w/${seeded.workspaceId}/scans`);
    // A new scan waits in Not attached, marked New.
    await expect(page.locator('#scans tbody tr').first().textContent()).resolves.toContain('New');
    await page.locator('#scans tbody tr a').first().click();
    await page.waitForURL(/\/scans\/scan_[0-9a-f]+$/);
    const scanUrl = page.url();
    // 4.2 × 3.1 + 1.5 × 5 = 20.52 m².
    await expect(page.textContent('#total-floor-area')).resolves.toBe('20.52 m²');
    await expect(page.locator('svg.floor-plan').count()).resolves.toBe(2);
    await expect(page.locator('svg.floor-plan').first().getAttribute('aria-label')).resolves.toBe(
      'Floor plan of Kitchen',
    );
    const cells = await page.locator('#rooms tbody tr').first().locator('td').allTextContents();
    // The name cell also holds the room's Rename form: its name is the first thing in it.
    expect([cells[0], await page.textContent('#room-name-1'), cells[2]]).toEqual(['1', 'Kitchen', '13.02 m²']);
    expect(cells[1]).toMatch(/^KitchenRename/);

    // The page fits at desktop and phone widths: nothing runs off the side (the table once cut off its last columns).
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const { scroll, viewport } = await page.evaluate<{ scroll: number; viewport: number }>(
        '({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth })',
      );
      expect(scroll).toBeLessThanOrEqual(viewport);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `scan-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // A room's other figures and its download open under More.
    await page.locator('#rooms tbody tr').first().locator('summary', { hasText: 'More' }).click();
    await expect(
      page.locator('#rooms tbody tr').first().getByRole('link', { name: 'Download room JSON' }).isVisible(),
    ).resolves.toBe(true);

    // The CSV, fetched as the Download link would, reads back into the same numbers.
    const csv = await page.request.get(`${scanUrl}/measurements.csv`);
    const rows = parse(await csv.body(), { bom: true, columns: true }) as Array<Record<string, string>>;
    const pageAreas = await page.locator('#rooms tbody tr td[data-label="Floor area"]').allTextContents();
    expect(rows.map((r) => `${r.floorArea_m2} m²`)).toEqual(pageAreas);

    // Attach it to the customer's lead, found by name.
    await page.fill('#f-find', 'tremblay');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Attach' }).click();
    await expect(page.textContent('#attached-lead')).resolves.toContain('Marie Tremblay');
    await page.getByRole('link', { name: 'Marie Tremblay' }).click();
    await expect(page.textContent('#lead-scans')).resolves.toContain('20.52 m²');

    // Imperial: the same scan in ft².
    await page.goto(`${base}/w/${seeded.workspaceId}/settings`);
    await page.selectOption('#f-units', 'imperial');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.textContent('.notice.ok')).resolves.toContain('Settings saved.');
    await page.goto(scanUrl);
    await expect(page.textContent('#total-floor-area')).resolves.toBe('221 ft²');
    // Attached scans leave the Not attached list.
    await page.goto(`${base}/w/${seeded.workspaceId}/scans`);
    await expect(page.locator('#scans').count()).resolves.toBe(0);
  });
});
