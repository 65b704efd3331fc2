import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import type { Browser } from 'playwright-core';
import { renderEmail } from '../../src/domain/notifications/render-email.js';
import { launchChromium } from './chromium.js';

/**
 * A new-lead email read on a 390 px phone: ordinary words stay whole (a long field label once squeezed the value
 * into a narrow column that broke words mid-letter), a long URL still wraps, nothing scrolls sideways.
 */
describe('email HTML on a phone', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  const message =
    'We would like the whole basement refinished including the laundry corner and the staircase, ' +
    'photos are at https://example.com/photos/basement-renovation-2026/album/0123456789abcdefghijklmnopqrstuvwxyz-0123456789 thanks';

  it('keeps words whole at 390 px and wraps a long URL inside the screen', async () => {
    const email = renderEmail({
      kind: 'arrivals',
      workspaceName: 'Acme Renovations',
      timeZone: 'America/Toronto',
      locale: 'en-US',
      leads: [
        {
          id: 'lead_1',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          phone: '+1 514-555-0199',
          address: '1200 Rue Sainte-Catherine Ouest, Montréal',
          notes: message,
          extra: {
            'How did you hear about us and what made you choose to contact us today?':
              'A neighbour recommended your company warmly',
          },
          sourceId: 'src_1',
          sourceName: 'Website form',
          receivedAt: '2026-03-02T12:00:00.000Z',
          url: 'http://leadscan.test/w/ws_1/leads/lead_1',
        },
      ],
      scans: [],
      leadTotal: 1,
      scanTotal: 0,
      unnamed: [],
      inboxUrl: 'http://leadscan.test/w/ws_1/leads',
      scansUrl: 'http://leadscan.test/w/ws_1/scans',
      settingsUrl: 'http://leadscan.test/w/ws_1/notifications',
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.setContent(email.html);
      // Each word's line boxes: a word on two lines was broken inside.
      const measured = await page.evaluate<{ split: string[]; scrollWidth: number }>(`(() => {
        const split = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of (node.textContent ?? '').matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) split.push(match[0]);
          }
        }
        return { split, scrollWidth: document.documentElement.scrollWidth };
      })()`);
      // Only the URL, longer than the line, may be broken.
      expect(measured.split.filter((word) => !word.startsWith('https://'))).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(390);
      if (process.env.SHOTS_DIR)
        await page.screenshot({ path: `${process.env.SHOTS_DIR}/email-lead-390.png`, fullPage: true });
    } finally {
      await page.close();
    }
  });
});
