import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createSession } from '../../src/domain/auth/sessions.js';
import { addFormField } from '../../src/domain/forms/add-form-field.js';
import { answerName } from '../../src/domain/forms/form-definition.js';
import { contrastWithWhite } from '../../src/domain/forms/accent-colour.js';
import { setBuiltInField } from '../../src/domain/forms/set-built-in-field.js';
import { updateSourceTexts } from '../../src/domain/sources/update-source-texts.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { embedSnippet } from '../../src/web/form/embed-snippet.js';
import { ageFormStamp } from '../helpers/form-stamp.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

/** `DOCS_SHOTS=1` writes the screenshots into docs/ (the README shows them); otherwise into a temporary folder. */
const SHOTS = process.env.DOCS_SHOTS ? path.resolve(import.meta.dirname, '../../docs') : os.tmpdir();

const INTRO =
  'Tell us about your project and we will call you back within one working day with a first estimate. ' +
  'We work on kitchens, bathrooms and roofs across the harbour area.';

/** A contractor's page on another origin (another port), with some text and the snippet exactly as shown to owners. */
async function hostPage(snippet: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbor Renovations · Contact</title>
<style>body{font:17px/1.6 Georgia,serif;margin:0;color:#222}header{background:#12343b;color:#fff;padding:1rem 1.5rem}main{max-width:46rem;margin:0 auto;padding:1rem 1.25rem}footer{border-top:1px solid #ddd;padding:1rem 1.5rem;color:#666}</style></head>
<body><header><strong>Harbor Renovations</strong></header><main><h1>Contact us</h1>
<p>Planning a new kitchen, a bathroom or a roof? Send us a few lines and we will get back to you.</p>
${snippet}
<p>Our office is open Monday to Friday, 8 to 17.</p></main><footer>© Harbor Renovations</footer></body></html>`;
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact?ref=harbor`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function formFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[id^="leadscan-form-"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no frame');
  await frame.waitForSelector('#lead-form');
  return frame;
}

// One browser for the file, and for each test a new database with the contractor's workspace, served on a port.
let browser: Browser;
let world: TestWorld;
let seeded: Seeded;
let base: string;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  world = await createWorld('sqlite');
  seeded = await world.seed('Harbor Renovations');
  base = await world.listen();
});
afterEach(async () => {
  await world.close();
});

describe('the embedded hosted form in Chromium', () => {
  beforeEach(async () => {
    await updateSourceTexts({ ctx: world.ctx, input: { sourceId: seeded.source.id, texts: { introduction: INTRO } } });
    // Shaped as an owner would: no address asked, the message under the contractor's own words.
    const shape = (name: string, change: { label?: string; shown: boolean; required: boolean }) =>
      setBuiltInField({ ctx: world.ctx, input: { sourceId: seeded.source.id, name, change } });
    await shape('address', { shown: false, required: false });
    await shape('notes', { label: 'About the job', shown: true, required: false });
  });

  for (const width of [1280, 390]) {
    it(`fits the frame to the form at ${width} px: Send visible without scrolling inside, the page's address on the lead, no block after sending`, async () => {
      const host = await hostPage(
        embedSnippet({
          formUrl: `${base}/f/${seeded.source.token}`,
          title: 'Contact form',
          token: seeded.source.token,
        }),
      );
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      try {
        await page.goto(host.url);
        const frame = await formFrame(page);
        const iframe = page.locator('iframe[id^="leadscan-form-"]');
        // The snippet sets the frame's height from the form's message.
        await page.waitForFunction(
          `(document.querySelector('iframe[id^="leadscan-form-"]')?.style.height ?? '') !== ''`,
        );
        await expect(frame.evaluate('document.documentElement.classList.contains("embedded")')).resolves.toBe(true);
        // Nothing to scroll inside the frame: the frame is as tall as the form, and Send is inside it.
        const inner = (await frame.evaluate(
          '({ scroll: document.documentElement.scrollHeight, view: window.innerHeight, send: document.querySelector("#lead-form button[type=submit]").getBoundingClientRect().bottom })',
        )) as { scroll: number; view: number; send: number };
        expect(inner.scroll).toBeLessThanOrEqual(inner.view + 1);
        expect(inner.send).toBeLessThanOrEqual(inner.view);
        const tall = (await iframe.boundingBox())!.height;
        expect(tall).toBeGreaterThan(400);
        await expect(frame.inputValue('#f-pageUrl')).resolves.toBe(host.url);
        await page.screenshot({ path: path.join(SHOTS, `embedded-form-${width}.png`), fullPage: true });

        await ageFormStamp(page, world, seeded.source.id);
        await frame.getByLabel('Name').fill('Ada Lovelace');
        await frame.getByLabel('Email').fill('ada@example.com');
        await frame.getByRole('button', { name: 'Send' }).click();
        await frame.waitForSelector('#thanks:not([hidden])');
        // The frame shrinks to the thank-you: no big empty block left on the owner's page.
        await page.waitForFunction(
          `document.querySelector('iframe[id^="leadscan-form-"]').getBoundingClientRect().height < ${tall / 2}`,
        );

        const leads = await world.store.db
          .selectFrom('leads')
          .selectAll()
          .where('source_id', '=', seeded.source.id)
          .execute();
        expect(leads.map((l) => [l.name, l.page_url])).toEqual([['Ada Lovelace', host.url]]);
      } finally {
        await context.close();
        await host.close();
      }
    });
  }

  it('the bare frame alone (no script on the page) still shows a working form', async () => {
    const bare = embedSnippet({
      formUrl: `${base}/f/${seeded.source.token}`,
      title: 'Contact form',
      token: seeded.source.token,
    }).split('\n')[0]!;
    const host = await hostPage(bare);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(host.url);
      const frame = await formFrame(page);
      await ageFormStamp(page, world, seeded.source.id);
      await frame.getByLabel('Name').fill('Bare Frame');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.waitForSelector('#thanks:not([hidden])');
      const leads = await world.store.db
        .selectFrom('leads')
        .selectAll()
        .where('source_id', '=', seeded.source.id)
        .execute();
      expect(leads.map((l) => [l.name, l.page_url])).toEqual([['Bare Frame', null]]);
    } finally {
      await context.close();
      await host.close();
    }
  });
});

describe("a post kept in the visitor's browser while the server is down, in Chromium", () => {
  async function serve(port = 0): Promise<{ app: App; port: number }> {
    const app = await buildApp(world.ctx, { logger: false });
    await app.listen({ host: '127.0.0.1', port });
    return { app, port: (app.server.address() as AddressInfo).port };
  }

  for (const resume of ['by itself', 'after a reload'] as const) {
    it(`says "not sent yet", keeps the post and sends it again ${resume} with the same key: exactly one lead`, async () => {
      const first = await serve();
      const url = `http://127.0.0.1:${first.port}/f/${seeded.source.token}`;
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const keys: string[] = [];
      // What happened when, kept for the failure message: a stall names its step and what the browser saw.
      const started = Date.now();
      const trail: string[] = [];
      const note = (what: string) => trail.push(`${String(Date.now() - started).padStart(6)} ms  ${what}`);
      page.on('request', (request) => {
        if (!request.url().includes('/api/intake/')) return;
        keys.push(request.headers()['idempotency-key'] ?? '');
        note('intake post sent');
      });
      page.on('requestfailed', (request) => {
        if (request.url().includes('/api/intake/')) note(`intake post failed: ${request.failure()?.errorText ?? '?'}`);
      });
      page.on('response', (response) => {
        if (response.url().includes('/api/intake/')) note(`intake post answered ${response.status()}`);
      });
      let second: { app: App } | null = null;
      try {
        note('open the form');
        await page.goto(url);
        await ageFormStamp(page, world, seeded.source.id);
        await page.getByLabel('Name').fill('Kept Post');
        await page.getByLabel('Phone').fill('+1 415 555 0100');
        // The server goes down as the visitor presses Send.
        note('server closing');
        await first.app.close();
        note('server closed; Send');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.waitForFunction(
          `(document.getElementById('form-status')?.textContent ?? '').includes('Not sent yet')`,
          undefined,
          { timeout: 30_000 },
        );
        note('"Not sent yet" shown');
        await expect(page.isVisible('#thanks')).resolves.toBe(false);
        const kept = (await page.evaluate(
          'Object.keys(localStorage).filter((k) => k.startsWith("leadscan:pending:")).length',
        )) as number;
        expect(kept).toBe(1);

        // Back on the same port, the same database.
        second = await serve(first.port);
        note('server back');
        if (resume === 'after a reload') await page.reload();
        // The script waits at most 30 s between attempts: two of its waits, whatever the machine's load.
        await page.waitForSelector('#thanks:not([hidden])', { timeout: 65_000 });
        note('thanks shown');
        await expect(
          page.evaluate('Object.keys(localStorage).filter((k) => k.startsWith("leadscan:pending:")).length'),
        ).resolves.toBe(0);
        const leads = await world.store.db
          .selectFrom('leads')
          .selectAll()
          .where('source_id', '=', seeded.source.id)
          .execute();
        expect(leads.map((l) => l.name)).toEqual(['Kept Post']);
        expect(new Set(keys.filter(Boolean)).size).toBe(1);
        expect(leads[0]!.idempotency_key).toBe(keys[0]);
      } catch (error) {
        const status = await page.textContent('#form-status').catch(() => '(page gone)');
        (error as Error).message += `\nform status: ${status}\n${trail.join('\n')}`;
        throw error;
      } finally {
        await context.close();
        await second?.app.close();
      }
    }, 120_000);
  }

  it('after a reload the fields show the kept post while it cannot be sent; refused, the visitor corrects it', async () => {
    const add = (field: Parameters<typeof addFormField>[0]['input']['field']) =>
      addFormField({ ctx: world.ctx, input: { sourceId: seeded.source.id, field } });
    const work = await add({
      kind: 'choice',
      label: 'Type of work',
      options: 'Kitchen\nBathroom\nRoof',
      required: true,
    });
    const extras = await add({ kind: 'checkboxes', label: 'Also interested in', options: 'Design\nPermits\nDisposal' });
    const details = await add({ kind: 'long_text', label: 'Details' });
    const consent = await add({
      kind: 'consent',
      label: 'Consent',
      consentText: 'You may call me about this request.',
      required: true,
    });
    const served = await serve();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // The intake answers nothing (the page itself still loads): the post is kept, and kept across the reload.
    const intake = '**/api/intake/**';
    await page.route(intake, (route) => route.abort('connectionrefused'));
    const status = () => page.textContent('#form-status');
    // Waits by selector: a polled string function would be refused by the page's CSP (no unsafe-eval).
    const notSentYet = () => page.locator('#form-status', { hasText: 'Not sent yet' }).waitFor({ timeout: 30_000 });
    const shown = () =>
      page.evaluate(`(() => {
        const value = (id) => document.getElementById(id).value;
        const ticked = (name) => Array.from(document.querySelectorAll('input[name="' + name + '"]')).filter((box) => box.checked).map((box) => box.value);
        return {
          name: value('f-name'), phone: value('f-phone'), notes: value('f-notes'), details: value('f-${answerName(details)}'),
          work: ticked('${answerName(work)}'), extras: ticked('${answerName(extras)}'), consent: ticked('${answerName(consent)}'),
        };
      })()`);
    const typed = {
      name: 'Refilled Rita',
      phone: '+1 415 555 0142',
      notes: 'Kitchen floor\nand the tiles',
      details: 'Second floor, no lift',
      work: ['Roof'],
      extras: ['Design', 'Disposal'],
      consent: ['yes'],
    };
    try {
      await page.goto(`http://127.0.0.1:${served.port}/f/${seeded.source.token}`);
      await ageFormStamp(page, world, seeded.source.id);
      await page.getByLabel('Name').fill(typed.name);
      await page.getByLabel('Phone').fill(typed.phone);
      await page.getByLabel('Message').fill(typed.notes);
      await page.getByLabel('Details').fill(typed.details);
      await page.getByLabel('Roof').check();
      await page.getByLabel('Design').check();
      await page.getByLabel('Disposal').check();
      await page.getByLabel('You may call me about this request.').check();
      await page.getByRole('button', { name: 'Send' }).click();
      await notSentYet();

      // Meanwhile the owner makes another answer required: the kept post, sent as it was, will be refused for it.
      const reference = await add({ kind: 'short_text', label: 'Job reference', required: true });
      await page.reload();
      await notSentYet();
      await expect(shown()).resolves.toEqual(typed);
      await expect(page.isDisabled('button[type="submit"]')).resolves.toBe(true);

      await ageFormStamp(page, world, seeded.source.id);
      await page.unroute(intake);
      await page.waitForSelector(`#f-${answerName(reference)}[aria-invalid="true"]`, { timeout: 60_000 });
      await expect(status()).resolves.toContain('Please correct the highlighted fields');
      await expect(shown()).resolves.toEqual(typed);
      await page.getByLabel('Job reference').fill('HR-1042');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForSelector('#thanks:not([hidden])', { timeout: 30_000 });
      const leads = await world.store.db
        .selectFrom('leads')
        .selectAll()
        .where('source_id', '=', seeded.source.id)
        .execute();
      expect(leads.map((l) => [l.name, l.phone, l.notes])).toEqual([[typed.name, typed.phone, typed.notes]]);
      expect(JSON.parse(leads[0]!.extra)).toMatchObject({
        'Type of work': 'Roof',
        Details: typed.details,
        'Job reference': 'HR-1042',
      });
    } catch (error) {
      (error as Error).message += `\nform status: ${await status().catch(() => '(page gone)')}`;
      throw error;
    } finally {
      await context.close();
      await served.app.close();
    }
  }, 120_000);
});

describe('the form fields editor in Chromium', () => {
  it('adds, orders and removes fields; the hosted form asks them, checks them, and the lead keeps the answers', async () => {
    const owner = await createUser({
      ctx: world.ctx,
      input: {
        email: 'maria@harbor.example',
        workspaceId: seeded.workspaceId,
        role: 'owner',
        displayName: 'Maria Santos',
      },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      await page.goto(`${base}/w/${seeded.workspaceId}/sources/${seeded.source.id}`);
      await page.click('#form-editor-link');
      const add = async (
        kind: string,
        label: string,
        more: { help?: string; options?: string; consentText?: string; required?: boolean } = {},
      ) => {
        await page.selectOption('#f-kind', kind);
        await page.fill('#f-label', label);
        if (more.help) await page.fill('#f-help', more.help);
        if (more.options) await page.fill('#f-options', more.options);
        if (more.consentText) await page.fill('#f-consentText', more.consentText);
        if (more.required) await page.check('#f-required');
        await page.getByRole('button', { name: 'Add field' }).click();
        await page.waitForSelector('.notice.ok');
      };
      await add('choice', 'Type of work', {
        options: 'Kitchen\nBathroom\nRoof',
        required: true,
        help: 'The main part of the job',
      });
      await add('short_text', 'Scratch field');
      await add('date', 'Preferred start', { help: 'Roughly is fine' });
      await add('checkboxes', 'Also interested in', { options: 'Design\nPermits\nDisposal' });
      await add('consent', 'Consent', { consentText: 'You may call me about this request.', required: true });
      // A refused field shows its problem next to it.
      await page.selectOption('#f-kind', 'choice');
      await page.fill('#f-label', 'Only one');
      await page.fill('#f-options', 'Single');
      await page.getByRole('button', { name: 'Add field' }).click();
      await expect(page.textContent('#f-options-error')).resolves.toContain('at least two options');

      const row = (label: string) => page.locator('.form-field-row', { hasText: label });
      await row('Scratch field').getByRole('button', { name: 'Remove' }).click();
      await page.waitForSelector('.notice.ok');
      await row('Preferred start').getByRole('button', { name: 'Move up' }).click();
      await page.waitForSelector('.notice.ok');
      await expect(page.locator('.form-field-row:not([data-built-in]) strong').allTextContents()).resolves.toEqual([
        'Preferred start',
        'Type of work',
        'Also interested in',
        'Consent',
      ]);
      // Edited in place: a refused edit shows its problem in that field's own form, kept open; then it saves.
      await row('Also interested in').locator('summary').click();
      const options = row('Also interested in').getByLabel('Options, one per line');
      await options.fill('Design');
      await row('Also interested in').getByRole('button', { name: 'Save field' }).click();
      await expect(row('Also interested in').locator('.field-error').textContent()).resolves.toContain(
        'at least two options',
      );
      await row('Also interested in').getByLabel('Options, one per line').fill('Design\nPermits\nDisposal');
      await row('Also interested in').getByLabel('Help text (optional)').fill('Tick any');
      await row('Also interested in').getByRole('button', { name: 'Save field' }).click();
      await page.waitForSelector('.notice.ok');
      await expect(row('Also interested in').textContent()).resolves.toContain('Tick any');
      await expect(page.getAttribute('#f-accent', 'type')).resolves.toBe('color');
      await page.fill('#f-accent', '#ffd400');
      await page.getByRole('button', { name: 'Save colour' }).click();
      await expect(page.textContent('#f-accent-error')).resolves.toContain('contrast');
      await page.fill('#f-accent', '#0b6e4f');
      await page.getByRole('button', { name: 'Save colour' }).click();
      await page.waitForSelector('.notice.ok');
      await page.getByRole('button', { name: 'Use the default colour' }).click();
      await page.waitForSelector('.notice.ok');
      await expect(page.textContent('.accent-now')).resolves.toContain('(default)');
      await page.fill('#f-accent', '#0b6e4f');
      await page.getByRole('button', { name: 'Save colour' }).click();
      await page.waitForSelector('.notice.ok');

      // The visitor's side: labelled, described, checked on the server, answered.
      const visitor = await context.newPage();
      await visitor.goto(`${base}/f/${seeded.source.token}`);
      await ageFormStamp(visitor, world, seeded.source.id);
      await visitor.getByLabel('Name').fill('Grace Hopper');
      await visitor.getByLabel('Preferred start').fill('2026-05-04');
      await expect(visitor.getByLabel('Preferred start').getAttribute('aria-describedby')).resolves.toContain('-help');
      await visitor.getByRole('button', { name: 'Send' }).click();
      await visitor.waitForSelector('fieldset[aria-invalid="true"]');
      const typeError = visitor.locator('fieldset', { hasText: 'Type of work' }).locator('.field-error');
      await expect(typeError.textContent()).resolves.toBe('Please answer “Type of work”.');
      await visitor.getByLabel('Roof').check();
      await visitor.getByLabel('Design').check();
      await visitor.getByLabel('Disposal').check();
      await visitor.getByLabel('You may call me about this request.').check();
      await visitor.getByRole('button', { name: 'Send' }).click();
      await visitor.waitForSelector('#thanks:not([hidden])');

      const [lead] = await world.store.db
        .selectFrom('leads')
        .selectAll()
        .where('source_id', '=', seeded.source.id)
        .execute();
      expect(JSON.parse(lead!.extra)).toEqual({
        'Preferred start': '2026-05-04',
        'Type of work': 'Roof',
        'Also interested in': 'Design, Disposal',
        Consent: 'Agreed: You may call me about this request.',
      });
      await page.goto(`${base}/w/${seeded.workspaceId}/leads/${lead!.id}`);
      await expect(page.textContent('main')).resolves.toContain('Design, Disposal');
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe('the built-in fields shaped in the editor, in Chromium', () => {
  it('hides Address, relabels Phone "Mobile", makes it required and first: the hosted form shows exactly that and refuses a post without it next to the field', async () => {
    const owner = await createUser({
      ctx: world.ctx,
      input: {
        email: 'maria@harbor.example',
        workspaceId: seeded.workspaceId,
        role: 'owner',
        displayName: 'Maria Santos',
      },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    await addFormField({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        field: {
          kind: 'choice',
          label: 'Type of work',
          required: true,
          options: 'Kitchen\nBathroom\nRoof',
          help: 'The main part of the job',
        },
      },
    });
    await addFormField({
      ctx: world.ctx,
      input: { sourceId: seeded.source.id, field: { kind: 'date', label: 'Preferred start' } },
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    const page = await context.newPage();
    try {
      await page.goto(`${base}/w/${seeded.workspaceId}/sources/${seeded.source.id}/form`);
      const row = (label: string) =>
        page.locator('.form-field-row', { has: page.locator('strong', { hasText: label }) });

      // The colour's contrast with white, live as the owner picks (the server's own rule).
      const hint = page.locator('#accent-contrast');
      await expect(hint.textContent()).resolves.toContain('#1f5fd1');
      await page.fill('#f-accent', '#ffd400');
      await expect(hint.textContent()).resolves.toBe(
        `White text on #ffd400: ${contrastWithWhite('#ffd400').toFixed(2)}:1 — too light; WCAG AA needs 4.5:1. Choose a darker colour.`,
      );
      await expect(hint.getAttribute('class')).resolves.toContain('bad');
      await page.fill('#f-accent', '#0b6e4f');
      await expect(hint.textContent()).resolves.toMatch(/^White text on #0b6e4f: 6\.\d\d:1 — readable/);
      await expect(hint.getAttribute('class')).resolves.toContain('ok');

      await row('Address').locator('summary').click();
      await row('Address').getByLabel('Shown on the form').uncheck();
      await row('Address').getByRole('button', { name: 'Save field' }).click();
      await page.waitForSelector('.notice.ok');
      await row('Phone').locator('summary').click();
      await row('Phone').getByLabel('Label').fill('Mobile');
      await row('Phone').getByLabel('Required').check();
      await row('Phone').getByRole('button', { name: 'Save field' }).click();
      await page.waitForSelector('.notice.ok');
      await row('Mobile').getByRole('button', { name: 'Move up' }).click();
      await page.waitForSelector('.notice.ok');
      await expect(page.locator('.form-field-row strong').allTextContents()).resolves.toEqual([
        'Mobile',
        'Name',
        'Email',
        'Address',
        'Message',
        'Type of work',
        'Preferred start',
      ]);
      await expect(row('Mobile').textContent()).resolves.toContain('Built-in (Phone) — shown — required');
      await expect(row('Address').textContent()).resolves.toContain('hidden');
      // Hiding the last way to reach the person is refused next to the box.
      for (const contact of ['Name', 'Email']) {
        await row(contact).locator('summary').click();
        await row(contact).getByLabel('Shown on the form').uncheck();
        await row(contact).getByRole('button', { name: 'Save field' }).click();
        await page.waitForSelector('.notice.ok');
      }
      await row('Mobile').locator('summary').click();
      await row('Mobile').getByLabel('Required').uncheck();
      await row('Mobile').getByLabel('Shown on the form').uncheck();
      await row('Mobile').getByRole('button', { name: 'Save field' }).click();
      await expect(page.textContent('#edit-phone-shown-error')).resolves.toContain(
        'Keep at least one of Name, Phone, Email on the form',
      );
      for (const contact of ['Name', 'Email']) {
        await page.goto(`${base}/w/${seeded.workspaceId}/sources/${seeded.source.id}/form`);
        await row(contact).locator('summary').click();
        await row(contact).getByLabel('Shown on the form').check();
        await row(contact).getByRole('button', { name: 'Save field' }).click();
        await page.waitForSelector('.notice.ok');
      }
      await page.fill('#f-accent', '#0b6e4f');
      await page.getByRole('button', { name: 'Save colour' }).click();
      await page.waitForSelector('.notice.ok');
      await row('Mobile').locator('summary').click();
      await page.screenshot({ path: path.join(SHOTS, 'form-fields-1280.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(SHOTS, 'form-fields-390.png'), fullPage: true });

      // The visitor's side: Mobile first and required, no Address, and a post without it refused beside it.
      const visitor = await context.newPage();
      await visitor.goto(`${base}/f/${seeded.source.token}`);
      await ageFormStamp(visitor, world, seeded.source.id);
      await expect(visitor.locator('#lead-form .field > label, #lead-form legend').allTextContents()).resolves.toEqual([
        'Mobile',
        'Name (optional)',
        'Email (optional)',
        'Message (optional)',
        'Type of work',
        'Preferred start (optional)',
      ]);
      await expect(visitor.locator('#f-address').count()).resolves.toBe(0);
      await expect(visitor.getByLabel('Mobile').getAttribute('aria-required')).resolves.toBe('true');
      await visitor.getByLabel('Name (optional)').fill('Grace Hopper');
      await visitor.getByLabel('Roof').check();
      await visitor.getByRole('button', { name: 'Send' }).click();
      await visitor.waitForSelector('#f-phone[aria-invalid="true"]');
      await expect(visitor.textContent('#f-phone-error')).resolves.toBe('Please answer “Mobile”.');
      expect(
        await world.store.db.selectFrom('leads').select('id').where('source_id', '=', seeded.source.id).execute(),
      ).toEqual([]);
      // Typing in it clears its error; sent again, it goes through.
      await visitor.getByLabel('Mobile').fill('+1 514 555 0199');
      await expect(visitor.textContent('#f-phone-error')).resolves.toBe('');
      await visitor.getByRole('button', { name: 'Send' }).click();
      await visitor.waitForSelector('#thanks:not([hidden])');
      const leads = await world.store.db
        .selectFrom('leads')
        .select(['name', 'phone'])
        .where('source_id', '=', seeded.source.id)
        .execute();
      expect(leads).toEqual([{ name: 'Grace Hopper', phone: '+1 514 555 0199' }]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
