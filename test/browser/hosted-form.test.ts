import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { startFakeSiteverify, type FakeSiteverify } from '../helpers/fake-siteverify.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';
import { ageFormStamp } from '../helpers/form-stamp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// One browser for the file; each test gets its own context.
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('hosted form in Chromium', () => {
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let formUrl: string;

  beforeEach(async () => {
    world = await createWorld('sqlite');
    seeded = await world.seed();
    base = await world.listen();
    formUrl = `${base}/f/${seeded.source.token}`;
  });
  afterEach(async () => {
    await world.close();
  });

  const leads = () =>
    world.store.db.selectFrom('leads').selectAll().where('source_id', '=', seeded.source.id).orderBy('id').execute();

  /** Every request the page sends to the intake endpoint, in order. */
  function intakeRequests(page: Page): Request[] {
    const seen: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/intake/')) seen.push(request);
    });
    return seen;
  }

  async function openForm(options: { javaScriptEnabled?: boolean; width?: number } = {}) {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: { width: options.width ?? 1024, height: 900 },
    });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(formUrl);
    expect(response?.status()).toBe(200);
    await ageFormStamp(page, world, seeded.source.id);
    return { context, page, violations };
  }

  it('clears an error as the person fixes its field, and the contact hint once one way to reach them is given', async () => {
    const { context, page } = await openForm();
    await page.getByLabel('Message').fill('Kitchen remodel');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#contact-hint.error');
    await page.getByLabel('Phone').type('5');
    await expect(page.getAttribute('#contact-hint', 'class')).resolves.toBe('hint');
    for (const field of ['name', 'phone', 'email']) {
      await expect(page.getAttribute(`#f-${field}`, 'aria-invalid')).resolves.toBeNull();
    }
    // A field's own message goes as that field is changed, and only that one.
    await page.evaluate(`(() => {
      for (const id of ['f-name', 'f-address']) {
        const el = document.getElementById(id);
        el.removeAttribute('maxlength');
        el.value = 'N'.repeat(1001);
      }
    })()`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#f-name-error:not(:empty)');
    await expect(page.textContent('#f-address-error')).resolves.not.toBe('');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await expect(page.textContent('#f-name-error')).resolves.toBe('');
    await expect(page.getAttribute('#f-name', 'aria-invalid')).resolves.toBeNull();
    await expect(page.getAttribute('#f-address', 'aria-invalid')).resolves.toBe('true');
    await expect(page.textContent('#f-address-error')).resolves.not.toBe('');
    await context.close();
  });

  it('shows problems inline, then takes the corrected form and thanks the person', async () => {
    const { context, page, violations } = await openForm();
    const requests = intakeRequests(page);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Acme');

    // Nothing to reach the person by: the hint turns into the problem and the contact fields are marked.
    await page.getByLabel('Message').fill('Kitchen remodel');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#contact-hint.error');
    await expect(page.textContent('#contact-hint')).resolves.toContain(
      'Please fill in your name, phone number or email',
    );
    for (const field of ['name', 'phone', 'email']) {
      await expect(page.getAttribute(`#f-${field}`, 'aria-invalid')).resolves.toBe('true');
    }
    await expect(page.textContent('#form-status')).resolves.toContain('Please correct the highlighted fields');
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('f-name');
    await expect(page.isEnabled('button[type="submit"]')).resolves.toBe(true);

    // Over the bound, past the browser's own maxlength (as a script or an old browser could): shown at the field.
    await page.evaluate(`(() => {
      const el = document.getElementById('f-name');
      el.removeAttribute('maxlength');
      el.value = 'N'.repeat(121);
    })()`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#f-name[aria-invalid="true"] ~ #f-name-error:not(:empty)');
    await expect(page.textContent('#f-name-error')).resolves.toBe('Please shorten this to 120 characters or fewer.');
    await expect(page.getAttribute('#f-email', 'aria-invalid')).resolves.toBeNull();
    await expect(page.getAttribute('#contact-hint', 'class')).resolves.toBe('hint');
    expect(await leads()).toHaveLength(0);

    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#thanks:not([hidden])');
    await expect(page.isVisible('#lead-form')).resolves.toBe(false);
    await expect(page.textContent('#thanks')).resolves.toContain('Your message was sent');
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('thanks');

    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      notes: 'Kitchen remodel',
      bot_check: 'off',
      origin: base,
      referer: formUrl,
    });
    // JSON to the intake, each with an Idempotency-Key; a refused submission stored nothing, so it gets a new one.
    expect(requests).toHaveLength(3);
    const keys = requests.map((r) => r.headers()['idempotency-key'] ?? '');
    for (const request of requests) expect(request.headers()['content-type']).toBe('application/json');
    for (const key of keys) expect(key).toMatch(UUID);
    expect(new Set(keys).size).toBe(3);
    expect(stored[0]!.idempotency_key).toBe(keys[2]);
    // The no-script key field is not sent as a lead field.
    expect(JSON.parse(stored[0]!.extra)).toEqual({});
    expect(requests[2]!.postData()).not.toContain('idempotencyKey');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('works without JavaScript: errors with values kept, then a thank-you page', async () => {
    const { context, page } = await openForm({ javaScriptEnabled: false });
    await page.getByLabel('Address').fill('1 Main St <Apt 2>');
    const [refused] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send' }).click()]);
    expect(refused?.status()).toBe(400);
    expect(refused?.url()).toBe(formUrl);
    await expect(page.getAttribute('#f-name', 'aria-invalid')).resolves.toBe('true');
    await expect(page.textContent('#contact-hint')).resolves.toContain('Please fill in your name');
    await expect(page.inputValue('#f-address')).resolves.toBe('1 Main St <Apt 2>');
    expect(await leads()).toHaveLength(0);

    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await page.getByLabel('Message').fill('Call after 5pm\nplease');
    // Chromium folds a double click into one navigation; the server side of a repeated post has its own test.
    await page.getByRole('button', { name: 'Send' }).dblclick();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await expect(page.locator('form').count()).resolves.toBe(0);

    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: null,
      phone: '+44 20 7946 0000',
      address: '1 Main St <Apt 2>',
      notes: 'Call after 5pm\r\nplease', // form submission sends CRLF line breaks
      origin: base,
      referer: formUrl,
    });
    await context.close();
  });

  it('sends one request at a time with one Idempotency-Key, however often Send is pressed', async () => {
    const { context, page } = await openForm();
    const requests = intakeRequests(page);
    // Hold the first answer back, so the later presses happen while it is in flight.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/intake/**', async (route) => {
      await held;
      await route.continue();
    });

    await page.getByLabel('Name').fill('Double Clicker');
    await page.getByRole('button', { name: 'Send' }).dblclick();
    await page.waitForSelector('button[type="submit"][disabled]');
    await expect(page.getAttribute('#lead-form', 'aria-busy')).resolves.toBe('true');
    // Enter in a field and a scripted submit both go through the same guard.
    await page.getByLabel('Name').press('Enter');
    await page.evaluate(`document.getElementById('lead-form').requestSubmit()`);
    expect(requests).toHaveLength(1);

    release();
    await page.waitForSelector('#thanks:not([hidden])');
    expect(requests).toHaveLength(1);
    const key = requests[0]!.headers()['idempotency-key'];
    expect(key).toMatch(UUID);
    const stored = await leads();
    expect(stored.map((l) => l.name)).toEqual(['Double Clicker']);
    expect(stored[0]!.idempotency_key).toBe(key);
    await context.close();
  });

  it('keeps the Idempotency-Key when an answer is lost and sends again by itself: one lead', async () => {
    const { context, page } = await openForm();
    const requests = intakeRequests(page);
    let calls = 0;
    await page.route('**/api/intake/**', async (route) => {
      calls += 1;
      // The first request reaches the server, but its answer never reaches the page.
      if (calls === 1) {
        await route.fetch();
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });
    await page.getByLabel('Email').fill('lost@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#form-status.error');
    await expect(page.textContent('#form-status')).resolves.toContain('Not sent yet — retrying');
    await expect(page.isVisible('#thanks')).resolves.toBe(false);
    await page.waitForSelector('#thanks:not([hidden])');

    expect(requests).toHaveLength(2);
    const keys = requests.map((r) => r.headers()['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(requests.map((r) => r.postData())).toEqual([requests[0]!.postData(), requests[0]!.postData()]);
    expect((await leads()).map((l) => l.email)).toEqual(['lost@example.com']);
    await context.close();
  });

  it('fits a 390px-wide phone screen without sideways scrolling', async () => {
    const { context, page } = await openForm({ width: 390 });
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    const box = await page.locator('#f-name').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // The honeypot is in the form but off-screen and out of the accessibility tree.
    const trap = await page.locator('#f-website').boundingBox();
    expect(trap === null || trap.x + trap.width <= 0).toBe(true);
    await expect(page.getByRole('textbox', { name: 'Leave this field empty' }).count()).resolves.toBe(0);
    await expect(page.getByRole('textbox', { name: 'Name' }).count()).resolves.toBe(1);
    await context.close();
  });
});

/**
 * Turnstile stand-ins: the widget script is answered by the test (no request leaves the machine) and hands out
 * token-1, token-2, … on each render/reset; the siteverify endpoint on loopback takes each token once and
 * refuses token-1 (as if it had expired). Without a reset after the refusal, the resend would carry token-1 again.
 */
const FAKE_TURNSTILE_JS = `(() => {
  let issued = 0;
  const boxes = [...document.querySelectorAll('.cf-turnstile')];
  function issue() {
    issued += 1;
    for (const box of boxes) {
      let input = box.querySelector('input[name="cf-turnstile-response"]');
      if (!input) {
        input = document.createElement('input');
        input.type = 'hidden';
        input.name = 'cf-turnstile-response';
        box.appendChild(input);
      }
      input.value = 'token-' + issued;
    }
  }
  window.turnstile = { reset: issue };
  issue();
})();`;

describe('hosted form with a bot check in Chromium', () => {
  let world: TestWorld;
  let seeded: Seeded;
  const verified: string[] = [];
  const siteverify = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const token = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('response') ?? '';
      const success = token !== 'token-1' && !verified.includes(token);
      verified.push(token);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(success ? { success } : { success, 'error-codes': ['timeout-or-duplicate'] }));
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`;
    world = await createWorld('sqlite', { env: { TURNSTILE_VERIFY_URL: verifyUrl } });
    seeded = await world.seed();
    await configureBotCheck({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'turnstile', secret: 'ts-secret', siteKey: '1x00000000000000000000AA' },
      },
    });
  });
  afterAll(async () => {
    await world?.close();
    await new Promise<void>((resolve) => siteverify.close(() => resolve()));
  });

  it('sends the widget token as botCheckToken and re-arms the widget after a refusal', async () => {
    const base = await world.listen();
    const context = await browser.newContext();
    const page = await context.newPage();
    const thirdParty: string[] = [];
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
      thirdParty.push(route.request().url());
      if (route.request().url() === 'https://challenges.cloudflare.com/turnstile/v0/api.js') {
        await route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE_JS });
      } else {
        await route.abort();
      }
    });
    const bodies: Array<Record<string, string>> = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/intake/'))
        bodies.push(JSON.parse(request.postData() ?? '{}') as Record<string, string>);
    });
    await page.goto(`${base}/f/${seeded.source.token}`);
    await ageFormStamp(page, world, seeded.source.id);
    await page.waitForSelector('input[name="cf-turnstile-response"]', { state: 'attached' });

    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#form-status.error');
    await expect(page.textContent('#form-status')).resolves.toContain('Please complete the “I am human” check');
    await expect(page.inputValue('input[name="cf-turnstile-response"]')).resolves.toBe('token-2');

    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#thanks:not([hidden])');

    expect(bodies.map((b) => b.botCheckToken)).toEqual(['token-1', 'token-2']);
    for (const body of bodies) expect(body).not.toHaveProperty('cf-turnstile-response');
    expect(verified).toEqual(['token-1', 'token-2']);
    expect(thirdParty).toEqual(['https://challenges.cloudflare.com/turnstile/v0/api.js']);
    const stored = await world.store.db
      .selectFrom('leads')
      .selectAll()
      .where('source_id', '=', seeded.source.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'Grace Hopper', bot_check: 'passed', extra: '{}' });
    await context.close();
  });
});

/**
 * A reCAPTCHA v3 stand-in, answered by the test (no request leaves the machine): no widget; `execute` records
 * each call and hands out v3-token-1, v3-token-2, … The real one needs ready() before execute(): so does this one.
 */
const FAKE_RECAPTCHA_V3_JS = `(() => {
  let ready = false;
  const waiting = [];
  const calls = [];
  window.__recaptchaCalls = calls;
  window.grecaptcha = {
    ready(callback) { if (ready) callback(); else waiting.push(callback); },
    execute(siteKey, options) {
      if (!ready) throw new Error('execute before ready');
      calls.push({ siteKey, action: options && options.action });
      return Promise.resolve('v3-token-' + calls.length);
    },
  };
  setTimeout(() => { ready = true; waiting.splice(0).forEach((f) => f()); }, 10);
})();`;

describe('hosted form with reCAPTCHA v3 in Chromium', () => {
  const SITE_KEY = '6LcV3-test-site-key';
  const SCRIPT = `https://www.google.com/recaptcha/api.js?render=${SITE_KEY}`;
  let fake: FakeSiteverify;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeSiteverify();
    world = await createWorld('sqlite', { env: fake.env() });
    seeded = await world.seed();
    await configureBotCheck({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'recaptcha', secret: 'v3-secret', siteKey: SITE_KEY, minScore: 0.5 },
      },
    });
    base = await world.listen();
  });
  afterAll(async () => {
    await world?.close();
    await fake?.close();
  });

  const leads = () =>
    world.store.db.selectFrom('leads').selectAll().where('source_id', '=', seeded.source.id).orderBy('id').execute();

  it('asks for a fresh token on each submit: a low score is refused inline, the resend passes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const thirdParty: string[] = [];
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
      thirdParty.push(route.request().url());
      if (route.request().url() === SCRIPT)
        await route.fulfill({ contentType: 'text/javascript', body: FAKE_RECAPTCHA_V3_JS });
      else await route.abort();
    });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const bodies: Array<Record<string, string>> = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/intake/'))
        bodies.push(JSON.parse(request.postData() ?? '{}') as Record<string, string>);
    });
    await page.goto(`${base}/f/${seeded.source.token}`);
    await ageFormStamp(page, world, seeded.source.id);
    await page.waitForFunction('Boolean(window.grecaptcha)');
    await expect(page.evaluate('window.__recaptchaCalls.length')).resolves.toBe(0);
    // With scripts on, the no-script notice is not shown.
    await expect(page.locator('#lead-form .bot-check p.field-error').count()).resolves.toBe(0);

    fake.mode = 'pass';
    fake.score = 0.2;
    await page.getByLabel('Name').fill('Katherine Johnson');
    await page.getByLabel('Email').fill('kj@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#form-status.error');
    await expect(page.textContent('#form-status')).resolves.toBe(
      'Our automatic spam check did not let this message through. Please send it again.',
    );
    for (const field of ['name', 'email'])
      await expect(page.getAttribute(`#f-${field}`, 'aria-invalid')).resolves.toBeNull();
    expect(await leads()).toHaveLength(0);

    fake.score = 0.9;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('#thanks:not([hidden])');

    await expect(page.evaluate('window.__recaptchaCalls')).resolves.toEqual([
      { siteKey: SITE_KEY, action: 'submit' },
      { siteKey: SITE_KEY, action: 'submit' },
    ]);
    expect(bodies.map((b) => b.botCheckToken)).toEqual(['v3-token-1', 'v3-token-2']);
    for (const body of bodies) expect(Object.keys(body).filter((k) => k.includes('recaptcha'))).toEqual([]);
    expect(fake.calls.map((c) => [c.provider, c.secret, c.response])).toEqual([
      ['recaptcha', 'v3-secret', 'v3-token-1'],
      ['recaptcha', 'v3-secret', 'v3-token-2'],
    ]);
    expect(thirdParty).toEqual([SCRIPT]);
    expect(violations).toEqual([]);
    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: 'Katherine Johnson',
      email: 'kj@example.com',
      bot_check: 'passed',
      extra: '{}',
    });
    await context.close();
  });

  it('tells a visitor without JavaScript that the form needs it, and stores nothing from a no-script post', async () => {
    const before = fake.calls.length;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    await page.goto(`${base}/f/${seeded.source.token}`);
    // Scripts are off, so the stamp cannot be aged in the page: wait as long as a person takes at the least.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // Playwright's text engine skips <noscript>, so the notice is found by its place in the form.
    const notice = page.locator('#lead-form .bot-check p.field-error');
    await expect(notice.isVisible()).resolves.toBe(true);
    await expect(notice.textContent()).resolves.toBe(
      'This form uses a spam check that needs JavaScript. Please turn JavaScript on to send it.',
    );
    await page.getByLabel('Name').fill('No Script');
    const [refused] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send' }).click()]);
    expect(refused?.status()).toBe(400);
    await expect(page.textContent('#form-status')).resolves.toContain('needs JavaScript');
    await expect(page.inputValue('#f-name')).resolves.toBe('No Script');
    expect(fake.calls.length).toBe(before);
    expect((await leads()).map((l) => l.name)).not.toContain('No Script');
    await context.close();
  });
});
