import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

const XSS = '<script>alert(1)</script> <img src=x onerror=alert(2)> leak in the roof';

/**
 * What a person sees on every screen and in the inbox rows, in a real browser: the top bar stays one line wide and
 * two lines on a phone with every screen reachable, and a lead's message shows its first line as text.
 */
describeEachBackend('the top bar and the inbox rows in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Harbor Renovations and Roofing');
    base = await world.listen();
    const res = await fetch(`${base}/api/intake/${seeded.source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Paula Price', notes: `${XSS}\nsecond line` }),
    });
    expect(res.status).toBe(200);
    const owner = await createUser({ ctx: world.ctx, input: { email: 'maria.santos@harbor-renovations.example', workspaceId: seeded.workspaceId, role: 'owner', displayName: 'Maria Santos' } });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
  });

  const barHeight = async () => (await page.locator('header.topbar').boundingBox())!.height;
  const screens = () => page.getByRole('navigation', { name: 'Screens' }).getByRole('link');

  it('shows the first line of a message as text under the name, with no bot-check column', async () => {
    await page.goto(`${base}/w/${seeded.workspaceId}/leads`);
    const row = page.locator('#leads tbody tr', { hasText: 'Paula Price' });
    expect(await row.locator('.preview').innerText()).toBe(XSS);
    expect(await row.innerText()).not.toContain('second line');
    expect(await page.locator('#leads img').count()).toBe(0);
    expect(await page.locator('#leads thead th').allInnerTexts()).not.toContain('BOT CHECK');
    expect(dialogs).toEqual([]);
  }, 60_000);

  it('keeps the top bar to one line at 1280 px and two at 390 px, every screen reachable', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/w/${seeded.workspaceId}/leads`);
    expect(await barHeight()).toBeLessThanOrEqual(64);
    const labels = (await screens().allInnerTexts()).map((t) => t.replace(/\s+\d+$/, '').trim());
    expect(labels).toEqual(['Leads', 'Quotes', 'Scans', 'Sources', 'Quarantine', 'Members', 'Settings', 'Audit log', 'Notifications']);

    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${base}/w/${seeded.workspaceId}/notifications`);
    const height = await barHeight();
    expect(height).toBeGreaterThanOrEqual(56);
    expect(height).toBeLessThanOrEqual(100);
    // The page is no wider than the phone: the screens scroll inside the bar, not the page.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // The current screen starts in view (the script scrolls the strip to it), and each one can be reached and used.
    expect(await page.getByRole('link', { name: 'Notifications' }).isVisible()).toBe(true);
    const strip = page.locator('nav.screens');
    const box = (await strip.boundingBox())!;
    const current = (await page.locator('nav.screens [aria-current="page"]').boundingBox())!;
    expect(current.x + current.width).toBeLessThanOrEqual(box.x + box.width + 1);
    for (const name of ['Leads', 'Sources', 'Settings']) {
      const link = screens().filter({ hasText: name });
      await link.scrollIntoViewIfNeeded();
      await link.click();
      await page.waitForURL(new RegExp(`/${name.toLowerCase()}$`));
    }
    // Account and Sign out stay on the first line.
    expect(await page.getByRole('link', { name: 'maria.santos@harbor-renovations.example' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  }, 60_000);
});
