import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSpamRules } from '../../src/domain/sources/update-spam-rules.js';
import { embedSnippet } from '../../src/web/form/embed-snippet.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';
import { inWorkspace } from '../../src/domain/context.js';

/** A page on its own port of 127.0.0.1 (another origin than the form's) that embeds the form with the snippet. */
async function hostPage(snippet: string): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head><body>${snippet}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/contact`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * With allowed sites, the browser itself refuses to show the form in a frame on any other site (frame-ancestors):
 * two pages on 127.0.0.1, one on the allowed port and one on another.
 */
describe('allowed sites in Chromium', () => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld('sqlite');
    seeded = await world.seed('Harbor Renovations');
    base = await world.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('shows the embedded form on an allowed site and not on another port of the same host', async () => {
    const snippet = embedSnippet({
      formUrl: `${base}/f/${seeded.source.token}`,
      title: 'Contact form',
      token: seeded.source.token,
    });
    const allowed = await hostPage(snippet);
    const other = await hostPage(snippet);
    await updateSpamRules({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { sourceId: seeded.source.id, add: { allowedSites: [`127.0.0.1:${allowed.port}`] } },
    });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const formIn = async (url: string) => {
        await page.goto(url);
        const frame = await (await page.waitForSelector('iframe[id^="leadscan-form-"]')).contentFrame();
        if (!frame) throw new Error('no frame');
        await frame.waitForLoadState('load');
        // A refused frame is Chromium's error page: no form inside.
        return (await frame.$('#lead-form')) !== null;
      };
      await expect(formIn(allowed.url)).resolves.toBe(true);
      await expect(formIn(other.url)).resolves.toBe(false);
    } finally {
      await context.close();
      await allowed.close();
      await other.close();
    }
  });
});
