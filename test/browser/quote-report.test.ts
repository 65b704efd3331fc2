import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { reportWorkspace, threeMonthsOfQuotes, type ReportWorld } from '../domain/reports/report-fixtures.js';
import { launchChromium } from './chromium.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/**
 * The Report and Settings → Follow-ups in a real browser, at 1280 and 390 px: the figures, the chart readable on a
 * phone with nothing wider than the screen, the period links and the range form, the follow-up settings saved and a
 * bad value shown beside its field. Screenshots go to docs/ (SQLite run).
 */
describeEachBackend('the Report and the follow-up settings in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let rw: ReportWorld;
  let base: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    const clock = new TestClock(Date.parse('2026-07-01T12:00:00Z'));
    // Email on (nothing is sent: no notifier runs in the test), so the settings page shows its usual state.
    world = await createWorld(backend, {
      clock,
      env: {
        LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
        SMTP_URL: 'smtp://127.0.0.1:9/?ignoreTLS=true',
        MAIL_FROM: 'quotes@brightfloors.example',
      },
    });
    rw = await reportWorkspace(world, 'Bright Floors');
    await threeMonthsOfQuotes(world, clock, rw);
    base = await world.listen();
    const owner = await createUser({
      ctx: world.ctx,
      input: { email: 'ann@brightfloors.example', workspaceId: rw.seeded.workspaceId, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await world?.close();
  });

  /** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
  const fitsWidth = () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

  it('shows the last 3 months from the Quotes screen, with a chart that stays legible at 390 px', async () => {
    await page.goto(`${base}/w/${rw.seeded.workspaceId}/quotes`);
    await page.click('#report-link');
    await page.waitForURL(/\/quotes\/report$/);
    await expect(page.textContent('h2.report-period')).resolves.toBe('August 1, 2026 – October 31, 2026');
    const tiles = await page.$$eval('dl.report-tiles .tile', (els) =>
      els.map((el) => [el.querySelector('dt')!.textContent, el.querySelector('.value')!.textContent]),
    );
    expect(tiles).toEqual([
      ['Sent', '10'],
      ['Accepted', '5'],
      ['Declined', '2'],
      ['Unanswered', '3'],
      ['Win rate', '71 %'],
      ['Value sent', '$9,200.00'],
      ['Value won', '$3,400.00'],
      ['Value paid', '$0.00'],
      ['Median days to an answer', '2'],
    ]);
    await expect(page.textContent('#by-source')).resolves.toContain('Google Ads page');
    await expect(page.textContent('#by-campaign')).resolves.toContain('spring');
    expect(
      await page.$$eval('svg.win-rate-chart > g', (gs) => gs.map((g) => g.querySelector('title')!.textContent)),
    ).toEqual([
      'Aug 2026: 50 % (1 of 2 answered)',
      'Sep 2026: 100 % (2 of 2 answered)',
      'Oct 2026: 67 % (2 of 3 answered)',
    ]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth()).toBe(true);
      // The chart's words are drawn at 11 px or more whatever the width: their size times the drawing's scale.
      const smallest = await page.evaluate<number>(`(() => {
        const svg = document.querySelector('svg.win-rate-chart');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
      })()`);
      expect(smallest).toBeGreaterThanOrEqual(11);
      if (backend === 'sqlite')
        await page.screenshot({ path: path.join(DOCS, `quote-report-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('switches to 12 months, takes a range, and says a range that ends before it starts is wrong', async () => {
    await page.goto(`${base}/w/${rw.seeded.workspaceId}/quotes/report`);
    await page.click('nav[aria-label="Period"] a:has-text("12 months")');
    await page.waitForURL(/period=12-months/);
    expect(await page.$$('svg.win-rate-chart > g')).toHaveLength(12);
    await expect(page.textContent('dl.report-tiles .tile .value')).resolves.toBe('11');
    await page.fill('#f-from', '2026-08-10');
    await page.fill('#f-to', '2026-10-05');
    await page.click('form.report-range button');
    await page.waitForURL(/from=2026-08-10/);
    await expect(page.textContent('dl.report-tiles .tile .value')).resolves.toBe('7');
    await page.fill('#f-from', '2026-10-05');
    await page.fill('#f-to', '2026-10-01');
    await page.click('form.report-range button');
    await page.waitForURL(/from=2026-10-05/);
    await expect(page.textContent('#f-to-error')).resolves.toBe('A day on or after the first day');
    await expect(page.inputValue('#f-to')).resolves.toBe('2026-10-01');
    await page.fill('#f-from', '2026-01-01');
    await page.fill('#f-to', '2026-01-31');
    await page.click('form.report-range button');
    await page.waitForURL(/from=2026-01-01/);
    await expect(page.textContent('.card .empty')).resolves.toBe('No quotes were first sent in this period.');
  });

  it('saves the follow-up settings from Settings, shows a bad value beside its field, and filters Needs follow-up', async () => {
    await page.goto(`${base}/w/${rw.seeded.workspaceId}/settings`);
    await page.click('#follow-ups-link');
    await page.waitForURL(/\/settings\/follow-ups$/);
    await expect(page.inputValue('#f-followUpDays')).resolves.toBe('3');
    await page.selectOption('#f-followUpDays', '5');
    await page.fill('#f-customerReminders', '3,7');
    await page.click('button:has-text("Save follow-ups")');
    await page.waitForURL(/notice=settings-saved/);
    await expect(page.inputValue('#f-followUpDays')).resolves.toBe('5');
    await expect(page.inputValue('#f-customerReminders')).resolves.toBe('3,7');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth()).toBe(true);
      if (backend === 'sqlite')
        await page.screenshot({ path: path.join(DOCS, `follow-ups-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.fill('#f-customerReminders', '3,7,9');
    await page.click('button:has-text("Save follow-ups")');
    await expect(page.textContent('#f-customerReminders-error')).resolves.toContain('Off, or up to 2 days');
    await expect(page.inputValue('#f-customerReminders')).resolves.toBe('3,7,9');
    // 20 October: Ida's quote of the 10th waits (valid until 9 November); the late-August one has expired.
    await page.goto(`${base}/w/${rw.seeded.workspaceId}/quotes`);
    await page.click('nav[aria-label="Status"] a:has-text("Needs follow-up")');
    await page.waitForURL(/status=needs-follow-up/);
    const rows = await page.$$eval('#quotes tbody tr', (trs) => trs.map((tr) => tr.children[1]!.textContent));
    expect(rows).toEqual(['Ida October']);
  });
});
