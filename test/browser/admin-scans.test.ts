import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';
import { launchChromium } from './chromium.js';

const PASSWORD = 'a long enough password';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The first-start story in a real browser against a real `leadscan serve` (npm test builds first): the banner's
 * one-time link, sign-in, the Scans screen's key (Show, Copy, Regenerate), an arrived scan and its exact bytes.
 */
describe('Scans screen in Chromium, from the first-start banner', () => {
  let browser: Browser;
  let server: ServeProcess;
  let base: string;
  let env: Record<string, string>;
  let setupLink: string;

  beforeAll(async () => {
    browser = await launchChromium();
    const dir = tempDir();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: path.join(dir, 'leadscan.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      SCAN_RATE_LIMIT: '0',
    };
    server = await serveProcess([], env);
    await new Promise((r) => setTimeout(r, 200));
    const match = /Set the admin password with this one-time link[^\n]*\n\s+(\S+)/.exec(server.output());
    if (!match) throw new Error(`no setup link in the banner:\n${server.output()}`);
    setupLink = match[1]!;
  });
  afterAll(async () => {
    await server?.stop();
    await browser?.close();
  });

  // The setup page named the first workspace (it was "Default" until then).
  const keyShow = async () =>
    (await cliJson<{ uploadKey: string }>(['key', 'show', '--workspace', 'Bright Floors'], env)).uploadKey;
  const upload = (key: string, body: string) =>
    fetch(`${base}/api/scan/upload`, {
      method: 'POST',
      headers: { 'x-scan-key': key, 'content-type': 'application/json' },
      body,
    });

  async function newPage(
    javaScriptEnabled = true,
  ): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
    const context = await browser.newContext({
      javaScriptEnabled,
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    if (javaScriptEnabled) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const violations: string[] = [];
    // Nothing a page asks for by itself (its stylesheet, script, icon, /favicon.ico) may end in a 404.
    page.on('response', (response) => {
      if (response.status() === 404) violations.push(`404 ${response.url()}`);
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(error.message));
    return { context, page, violations };
  }

  async function signIn(page: Page) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // People land on the Leads inbox; Scans is one click along the top bar.
    await page.waitForURL(/\/w\/ws_[0-9a-f]+\/leads$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Leads inbox');
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: /^Scans/ })
      .click();
    await page.waitForURL(/\/w\/ws_[0-9a-f]+\/scans$/);
  }

  it('banner link → password → sign in → Show, Copy, Regenerate → scan listed and downloaded exactly → sign out', async () => {
    const { context, page, violations } = await newPage();
    expect(setupLink.startsWith(`${base}/setup/`)).toBe(true);
    await page.goto(setupLink);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set your password');
    // The first owner's page asks for the business's name and their real email and name instead of keeping admin@localhost.
    await page.getByLabel('Business name').fill('Bright Floors');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Olga Owner');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    // Signed in by setting the password: no second sign-in; people land on the Leads inbox.
    await page.waitForURL(/\/w\/ws_[0-9a-f]+\/leads$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Leads inbox');
    // The link worked once.
    expect((await fetch(setupLink)).status).toBe(410);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: /^Scans/ })
      .click();
    await page.waitForURL(/\/w\/ws_[0-9a-f]+\/scans$/);
    const key = await keyShow();
    await expect(page.textContent('#upload-key')).resolves.toBe(`lsk_…${key.slice(-4)}`);
    await expect(page.content()).resolves.not.toContain(key);

    await page.getByRole('link', { name: 'Show' }).click();
    await page.waitForURL(/\?show=key$/);
    await expect(page.textContent('#upload-key')).resolves.toBe(key);
    await expect(page.textContent('#connection-test')).resolves.toContain(`x-scan-key: ${key}`);

    await page.locator('#copy-key').click();
    // Waited for by a locator: a string predicate is eval'd in the page, which the admin CSP forbids.
    await page.locator('#key-status', { hasText: /^(Copied|Could not copy.*)$/ }).waitFor();
    await expect(page.textContent('#key-status')).resolves.toBe('Copied');
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(key);

    page.once('dialog', (dialog) => {
      expect(dialog.message()).toContain('stops working at once');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.waitForURL(/notice=key-regenerated/);
    const newKey = await keyShow();
    expect(newKey).not.toBe(key);
    await expect(page.textContent('#upload-key')).resolves.toBe(newKey);
    expect((await upload(key, '{"rooms":[]}')).status).toBe(401);
    expect((await upload(newKey, '{"rooms":[]}')).status).toBe(200);

    const body = '{ "rooms": [ {"name":"Kitchen <b>1</b>", "area": 1.10},\n {"walls":[]} ], "app": "test" }\n';
    expect((await upload(newKey, body)).status).toBe(200);
    await page.goto(`${page.url().split('?')[0]}`);
    const row = page.locator('#scans tbody tr').first();
    await expect(row.textContent()).resolves.toContain('Kitchen <b>1</b>, Room 2');
    await expect(page.textContent('#last-connected')).resolves.not.toBe('not yet');
    await row.getByRole('link').click();
    await page.waitForURL(/\/scans\/scan_[0-9a-f]+$/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-body').click()]);
    expect(fs.readFileSync((await download.path())!)).toEqual(Buffer.from(body));
    // A room's own download sits with its other figures, behind its More.
    const firstRoom = page.locator('#rooms tbody tr').first();
    await firstRoom.locator('summary', { hasText: 'More' }).click();
    const [room] = await Promise.all([
      page.waitForEvent('download'),
      firstRoom.getByRole('link', { name: 'Download room JSON' }).click(),
    ]);
    expect(fs.readFileSync((await room.path())!).toString()).toBe('{"name":"Kitchen <b>1</b>", "area": 1.10}');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login\?notice=signed-out$/);
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(violations).toEqual([]);
    await context.close();
  }, 90_000);

  it('Regenerate works with JavaScript disabled', async () => {
    const { context, page } = await newPage(false);
    await signIn(page);
    const before = await keyShow();
    await expect(page.isHidden('#copy-key')).resolves.toBe(true);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.waitForURL(/notice=key-regenerated/);
    const after = await keyShow();
    expect(after).not.toBe(before);
    await expect(page.textContent('#upload-key')).resolves.toBe(after);
    expect((await upload(before, '{"rooms":[]}')).status).toBe(401);
    expect((await upload(after, '{"rooms":[]}')).status).toBe(200);
    await context.close();
  }, 90_000);
});
