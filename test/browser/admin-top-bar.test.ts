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
    const owner = await createUser({
      ctx: world.ctx,
      input: {
        email: 'maria.santos@harbor-renovations.example',
        workspaceId: seeded.workspaceId,
        role: 'owner',
        displayName: 'Maria Santos',
      },
    });
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

  it('keeps the top bar to one line at 1280 px with every screen in it, the Menu hidden', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/w/${seeded.workspaceId}/leads`);
    expect(await barHeight()).toBeLessThanOrEqual(64);
    const labels = (await screens().allInnerTexts()).map((t) => t.replace(/\s+\d+$/, '').trim());
    expect(labels).toEqual([
      'Leads',
      'Quotes',
      'Invoices',
      'Scans',
      'Sources',
      'Quarantine',
      'Members',
      'Settings',
      'Audit log',
      'Notifications',
    ]);
    for (const link of await screens().all()) expect(await link.isVisible()).toBe(true);
    expect(await page.locator('details.menu > summary').isVisible()).toBe(false);
    // The inbox's filters show without a Filters button, as they always did on a wide screen.
    expect(await page.getByLabel('Stage').isVisible()).toBe(true);
    expect(await page.locator('details.filter-fold > summary').isVisible()).toBe(false);
  }, 60_000);

  it('folds the screens into a Menu at 390 px: one line, no sideways scroll, every screen reachable from it', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${base}/w/${seeded.workspaceId}/notifications`);
    expect(await barHeight()).toBeLessThanOrEqual(64);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const menu = page.locator('details.menu > summary');
    expect(await menu.isVisible()).toBe(true);
    expect((await menu.getAttribute('aria-label')) ?? (await menu.innerText())).toContain('Menu');
    expect(await screens().count()).toBe(0); // folded: not shown, not in the accessibility tree
    // Account and Sign out stay in the bar.
    expect(await page.getByRole('link', { name: 'maria.santos@harbor-renovations.example' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

    await menu.click();
    const labels = (await screens().allInnerTexts()).map((t) => t.replace(/\s+\d+$/, '').trim());
    expect(labels).toEqual([
      'Leads',
      'Quotes',
      'Invoices',
      'Scans',
      'Sources',
      'Quarantine',
      'Members',
      'Settings',
      'Audit log',
      'Notifications',
    ]);
    for (const link of await screens().all()) {
      expect(await link.isVisible()).toBe(true);
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(40); // big enough to tap
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await page.locator('nav.screens [aria-current="page"]').innerText()).toBe('Notifications');
    // Escape closes it and gives the focus back to the button (the script's part); the keyboard opens it again.
    await page.keyboard.press('Escape');
    expect(await screens().count()).toBe(0);
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('SUMMARY');
    await page.keyboard.press('Enter');
    expect(await screens().count()).toBe(10);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent?.trim()')).toMatch(/^Leads/);

    await page.keyboard.press('Escape');
    for (const [name, path] of [
      ['Members', 'members'],
      ['Settings', 'settings'],
      ['Audit log', 'audit'],
      ['Notifications', 'notifications'],
      ['Leads', 'leads'],
    ]) {
      await page.locator('details.menu > summary').click();
      await screens().filter({ hasText: name! }).click();
      await page.waitForURL(new RegExp(`/${path}$`));
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    }
  }, 60_000);

  it('opens the Menu and the Filters without the script too', async () => {
    const plain = await browser.newContext({ viewport: { width: 390, height: 800 }, javaScriptEnabled: false });
    try {
      await plain.addCookies(await context.cookies());
      const bare = await plain.newPage();
      await bare.goto(`${base}/w/${seeded.workspaceId}/leads`);
      await bare.locator('details.menu > summary').click();
      await bare.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Settings' }).click();
      await bare.waitForURL(/\/settings$/);
      await bare.goto(`${base}/w/${seeded.workspaceId}/leads`);
      await bare.locator('details.filter-fold > summary').click();
      await bare.getByLabel('Stage').selectOption({ label: 'Inbox' });
      await bare.getByRole('button', { name: 'Apply' }).click();
      await bare.waitForURL(/stage=/);
      expect(await bare.locator('details.filter-fold').getAttribute('open')).not.toBeNull();
    } finally {
      await plain.close();
    }
  }, 60_000);

  it('folds the inbox filters behind Filters at 390 px, open when one is set', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    const inbox = `${base}/w/${seeded.workspaceId}/leads`;
    await page.goto(inbox);
    const fold = page.locator('details.filter-fold');
    expect(await fold.getAttribute('open')).toBeNull();
    expect(await page.getByLabel('Stage').isVisible()).toBe(false);
    expect(await page.getByLabel('Follow-up due').isVisible()).toBe(false);
    // The search stays out of the fold, and searching alone leaves it closed.
    expect(await page.getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Apply' }).isVisible()).toBe(true);
    const leadsTop = (await page.locator('#leads').boundingBox())!.y;
    expect(leadsTop).toBeLessThan(800); // the first lead shows on the first screen
    await page.goto(`${inbox}?q=Paula`);
    expect(await fold.getAttribute('open')).toBeNull();

    await page.locator('details.filter-fold > summary').click();
    expect(await page.getByLabel('Stage').isVisible()).toBe(true);
    for (const set of ['stage=inbox', 'due=1', 'assigned=none', 'from=2020-01-01']) {
      await page.goto(`${inbox}?${set}`);
      expect(await fold.getAttribute('open'), set).not.toBeNull();
      expect(await page.getByLabel('Stage').isVisible()).toBe(true);
      expect(await fold.locator('summary .count').innerText()).toBe('1');
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    if (process.env.SHOTS_DIR) {
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/filters-open-390.png`, fullPage: true });
      await page.locator('details.menu > summary').click();
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/menu-open-390.png` });
    }
  }, 60_000);
});
