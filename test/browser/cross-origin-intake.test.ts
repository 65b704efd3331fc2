import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

/**
 * A page on another origin (another loopback port) posting to the intake, the way a customer's website does.
 * The browser's own CORS check decides whether the page may read the answer; nothing here imitates it.
 */
function otherSite(pages: Record<string, string>) {
  const server = http.createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return {
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the posts from the page and writes what the page could read into #out as JSON. */
function fetchPage(intakeUrl: string): string {
  return `<!doctype html><html><body>
<form id="f"><input name="name" value="Form Data Person"><input name="phone" value="+1 415 555 0100">
<textarea name="notes">multi
line</textarea><input type="file" name="attachment"></form>
<pre id="out"></pre>
<script>
const url = ${JSON.stringify(intakeUrl)};
async function read(label, init) {
  try {
    const res = await fetch(url, init);
    const body = await res.json();
    return { label, status: res.status, ok: body.ok, id: body.id, code: body.code, requestId: res.headers.get('x-request-id') };
  } catch (e) {
    return { label, failed: String(e) };
  }
}
(async () => {
  const results = [];
  results.push(await read('json', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ name: 'Json Person', email: 'json@example.com', budget: 1200 }),
  }));
  results.push(await read('formdata', { method: 'POST', body: new FormData(document.getElementById('f')) }));
  results.push(await read('missing', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ notes: 'no way to reach me' }),
  }));
  results.push(await read('too-long', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'N'.repeat(121) }),
  }));
  const out = document.getElementById('out');
  out.textContent = JSON.stringify(results);
  out.setAttribute('data-done', 'yes');
})();
</script></body></html>`;
}

/** A plain HTML form on the other site, no scripts: the browser posts it form-encoded across origins. */
function plainFormPage(intakeUrl: string): string {
  return `<!doctype html><html><body>
<form method="post" action="${intakeUrl}">
<label>Name <input name="name"></label><label>Email <input name="email"></label>
<label>Message <textarea name="message"></textarea></label>
<input type="text" name="website" value="" style="display:none">
<button type="submit">Send</button>
</form></body></html>`;
}

interface ReadResult {
  label: string;
  status?: number;
  ok?: boolean;
  id?: string;
  code?: string;
  requestId?: string | null;
  failed?: string;
}

describe('intake from a page on another origin (Chromium)', () => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let appBase: string;
  let site: ReturnType<typeof otherSite>;
  let siteBase: string;

  beforeAll(async () => {
    world = await createWorld('sqlite');
    seeded = await world.seed();
    appBase = await world.listen();
    const intakeUrl = `${appBase}/api/intake/${seeded.source.token}`;
    site = otherSite({ '/fetch.html': fetchPage(intakeUrl), '/form.html': plainFormPage(intakeUrl) });
    siteBase = await site.start();
    expect(new URL(siteBase).origin).not.toBe(new URL(appBase).origin);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await world?.close();
  });

  const leads = () =>
    world.store.db.selectFrom('leads').selectAll().where('source_id', '=', seeded.source.id).orderBy('id').execute();

  it('lets the page post JSON and FormData with fetch and read the answers, errors included', async () => {
    const before = (await leads()).length;
    const page = await browser.newPage();
    await page.goto(`${siteBase}/fetch.html`);
    await page.waitForSelector('#out[data-done="yes"]');
    const results = JSON.parse((await page.textContent('#out')) ?? '[]') as ReadResult[];
    await page.close();

    const byLabel = Object.fromEntries(results.map((r) => [r.label, r]));
    expect(byLabel.json).toMatchObject({ status: 200, ok: true });
    expect(byLabel.json!.id).toMatch(/^lead_[0-9a-f]{32}$/);
    expect(byLabel.json!.requestId).toBeTruthy(); // an exposed header the page can read
    expect(byLabel.formdata).toMatchObject({ status: 200, ok: true });
    expect(byLabel.missing).toMatchObject({ status: 400, ok: false, code: 'missing_contact' });
    expect(byLabel['too-long']).toMatchObject({ status: 400, ok: false, code: 'invalid_fields' });

    const stored = (await leads()).slice(before);
    expect(stored).toHaveLength(2);
    const json = stored.find((l) => l.id === byLabel.json!.id);
    expect(json).toMatchObject({ name: 'Json Person', email: 'json@example.com', origin: siteBase });
    expect(JSON.parse(json!.extra)).toEqual({ budget: '1200' });
    const formData = stored.find((l) => l.id === byLabel.formdata!.id);
    expect(formData).toMatchObject({
      name: 'Form Data Person',
      phone: '+1 415 555 0100',
      notes: 'multi\r\nline',
      origin: siteBase,
    }); // form data sends CRLF
    expect(JSON.parse(formData!.extra)).toEqual({});
  });

  it('takes a plain HTML form (no scripts) posted form-encoded from the other origin', async () => {
    const before = (await leads()).length;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${siteBase}/form.html`);
    await page.fill('input[name="name"]', 'Plain Form Person');
    await page.fill('input[name="email"]', 'plain@example.com');
    await page.fill('textarea[name="message"]', 'Kitchen & bath');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${appBase}/api/intake/`)),
      page.click('button[type="submit"]'),
    ]);
    expect(response.request().method()).toBe('POST');
    expect(response.request().headers()['content-type']).toBe('application/x-www-form-urlencoded');
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { ok: boolean; id: string };
    expect(body.ok).toBe(true);
    await context.close();

    const stored = (await leads()).slice(before);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: body.id,
      name: 'Plain Form Person',
      email: 'plain@example.com',
      notes: 'Kitchen & bath',
      origin: siteBase,
      // The browser's default referrer policy sends only the origin across origins.
      referer: `${siteBase}/`,
    });
  });
});
