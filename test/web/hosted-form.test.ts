import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotCheckProvider } from '../../src/config.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { updateSourceTexts } from '../../src/domain/sources/update-source-texts.js';
import { describeEachBackend } from '../helpers/backends.js';
import { startFakeSiteverify, type FakeSiteverify } from '../helpers/fake-siteverify.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function encode(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/**
 * The render stamp of a form rendered ten seconds before the suite began: what a person's post carries
 * (docs/security.md). One time for every post, so a repeated post is the same payload.
 */
const RENDERED_AT = new Date(Date.now() - 10_000);
function readyStamp(world: TestWorld, sourceId: string): string {
  return world.ctx.formStamps.make(sourceId, RENDERED_AT);
}

/** The opening tag of the element with this id (attributes in any order). */
function tagWithId(page: string, id: string): string {
  const match = new RegExp(`<(?:input|textarea|p|div|section)\\b[^>]*\\bid="${id}"[^>]*>`).exec(page);
  if (!match) throw new Error(`no element with id ${id}`);
  return match[0];
}

function cspOf(headers: Record<string, unknown>): Map<string, string[]> {
  const csp = String(headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** A stand-in for a bot-check provider's siteverify endpoint, on loopback: records what it was asked. */
function fakeProvider() {
  const asked: Array<Record<string, string>> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      asked.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          form.response === 'good-token'
            ? { success: true }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  return {
    asked,
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeEachBackend('hosted form', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let token: string;

  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    token = seeded.source.token;
  });
  afterEach(async () => {
    await world.close();
  });

  const leadsOf = (sourceId: string) =>
    world.store.db.selectFrom('leads').selectAll().where('source_id', '=', sourceId).execute();
  const quarantineOf = (sourceId: string) =>
    world.store.db.selectFrom('quarantine').selectAll().where('source_id', '=', sourceId).execute();

  async function get(path: string) {
    return (await world.app()).inject({ method: 'GET', url: path });
  }
  async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return (await world.app()).inject({
      method: 'POST',
      url: path,
      headers: { ...FORM, ...headers },
      payload: encode({ formStamp: readyStamp(world, seeded.source.id), ...fields }),
    });
  }

  it('serves an accessible form with labels, bounds, a hidden honeypot and a strict CSP', async () => {
    const res = await get(`/f/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const page = res.body;
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    expect(page).toContain('<h1>Acme</h1>');

    const bounds = { name: 120, phone: 40, email: 160, address: 240, notes: 2000 };
    for (const [field, max] of Object.entries(bounds)) {
      const control = tagWithId(page, `f-${field}`);
      expect(control).toContain(`name="${field}"`);
      expect(control).toContain(`maxlength="${max}"`);
      expect(control).toContain(`f-${field}-error`); // errors are tied to the field by aria-describedby
      expect(page).toMatch(new RegExp(`<label for="f-${field}">`));
    }
    expect(tagWithId(page, 'f-notes')).toMatch(/^<textarea/);
    for (const contact of ['name', 'phone', 'email']) {
      expect(tagWithId(page, `f-${contact}`)).toMatch(/aria-describedby="contact-hint /);
    }
    expect(page).toMatch(/id="contact-hint"[^>]*>[^<]*name, phone number or email/);
    expect(tagWithId(page, 'form-status')).toContain('role="status"');
    expect(tagWithId(page, 'form-status')).toContain('aria-live="polite"');

    const honeypot = tagWithId(page, 'f-website');
    expect(honeypot).toContain('name="website"');
    expect(honeypot).toContain('tabindex="-1"');
    expect(honeypot).toContain('aria-hidden="true"');
    expect(honeypot).toContain('autocomplete="off"');
    expect(page).toMatch(/<div class="hp" aria-hidden="true">\s*<label for="f-website">/);

    // Progressive enhancement: without scripts the form posts to /f/{token}; the script posts to the intake.
    const form = tagWithId(page.replace('<form', '<div'), 'lead-form');
    expect(form).toContain(`action="${token}"`);
    expect(form).toContain('method="post"');
    expect(form).toContain(`data-intake="../api/intake/${token}"`);

    // Our own assets only, no inline script or style, no third-party URL anywhere.
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/<script>|<style|style="/);
    const csp = cspOf(res.headers);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.has('frame-src')).toBe(false);

    const css = /href="(assets\/form\.css\?v=[0-9a-f]+)"/.exec(page)?.[1];
    const js = /src="(assets\/form\.js\?v=[0-9a-f]+)"/.exec(page)?.[1];
    expect(css && js).toBeTruthy();
    const cssRes = await get(`/f/${css}`);
    expect(cssRes.statusCode).toBe(200);
    expect(cssRes.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(cssRes.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(cssRes.body).toMatch(/\.hp \{[^}]*left: -10000px/);
    const jsRes = await get(`/f/${js}`);
    expect(jsRes.statusCode).toBe(200);
    expect(jsRes.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(jsRes.body).toMatch(/['"]Idempotency-Key['"]: pending\.key/);
    expect((await get('/f/assets/form.js')).headers['cache-control']).toBe('public, max-age=300');
    expect((await get('/f/assets/nope.js')).statusCode).toBe(404);
  });

  it("escapes the owner-provided heading, and never shows the source's internal name", async () => {
    const evil = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: seeded.pipelineId, name: 'Internal name 42' },
    });
    await updateSourceTexts({
      ctx: world.ctx,
      input: { sourceId: evil.id, texts: { heading: '<script>alert("x")</script> & Co' } },
    });
    const res = await get(`/f/${evil.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('Internal name 42');
    expect(res.body).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</h1>');
  });

  it('answers a closed page (404) for unknown and deactivated links, the same for both', async () => {
    const unknown = await get('/f/0b6e2c1a-1111-4222-8333-444455556666');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(unknown.body).toContain('This form is closed');
    expect(unknown.body).not.toContain('<form');

    await setSourceActive({ ctx: world.ctx, input: { sourceId: seeded.source.id, active: false } });
    const closed = await get(`/f/${token}`);
    expect(closed.statusCode).toBe(404);
    expect(closed.body).toBe(unknown.body);
    const closedPost = await post(`/f/${token}`, { name: 'Ada' });
    expect(closedPost.statusCode).toBe(404);
    expect(closedPost.body).toContain('This form is closed');
    expect(await leadsOf(seeded.source.id)).toHaveLength(0);

    await setSourceActive({ ctx: world.ctx, input: { sourceId: seeded.source.id, active: true } });
    expect((await get(`/f/${token}`)).statusCode).toBe(200);
  });

  it('answers a 400 page for a malformed token, on GET and POST', async () => {
    for (const res of [await get('/f/not-a-token'), await post('/f/1234', { name: 'Ada' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.body).toContain('This form link is not valid');
    }
  });

  it('takes a no-script post: thank-you page and the lead stored, with the request facts', async () => {
    const res = await post(
      `/f/${token}`,
      {
        name: '  Ada Lovelace ',
        phone: '',
        email: 'ada@example.com',
        address: '',
        notes: 'Line one\nLine two',
        website: '',
      },
      { 'user-agent': 'FormTest/1.0', referer: `http://leadscan.test/f/${token}`, origin: 'http://leadscan.test' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Thank you');
    expect(res.body).not.toContain('<form');

    const leads = await leadsOf(seeded.source.id);
    expect(leads).toHaveLength(1);
    const lead = leads[0]!;
    expect(lead).toMatchObject({
      name: 'Ada Lovelace',
      phone: null,
      email: 'ada@example.com',
      address: null,
      notes: 'Line one\nLine two',
      stage: 'inbox',
      pipeline_id: seeded.pipelineId,
      bot_check: 'off',
      user_agent: 'FormTest/1.0',
      origin: 'http://leadscan.test',
      referer: `http://leadscan.test/f/${token}`,
    });
    expect(JSON.parse(lead.extra)).toEqual({});
    expect(lead.id).toMatch(/^lead_[0-9a-f]{32}$/);
  });

  it('shows the form again (400) with the problem next to the field and the values kept, escaped', async () => {
    const notes = '<script>alert("x")</script>\n& more';
    const missing = await post(`/f/${token}`, { name: ' ', phone: '', email: '', address: '"><img src=x>', notes });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['content-security-policy']).toContain("default-src 'none'");
    const page = missing.body;
    expect(page).toMatch(/<title>Please correct the form/);
    expect(page).toMatch(
      /id="contact-hint" class="hint error">Please fill in your name, phone number or email address/,
    );
    for (const contact of ['name', 'phone', 'email'])
      expect(tagWithId(page, `f-${contact}`)).toContain('aria-invalid="true"');
    expect(tagWithId(page, 'f-address')).not.toContain('aria-invalid');
    expect(tagWithId(page, 'f-address')).toContain('value="&quot;&gt;&lt;img src=x&gt;"');
    expect(page).toContain('<textarea id="f-notes"');
    expect(page).toContain('\n&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\n&amp; more</textarea>');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x>');
    expect(tagWithId(page, 'form-status')).toContain('class="status error"');

    const tooLong = await post(`/f/${token}`, { name: 'N'.repeat(121), email: 'ada@example.com', notes: 'hi' });
    expect(tooLong.statusCode).toBe(400);
    const nameInput = tagWithId(tooLong.body, 'f-name');
    expect(nameInput).toContain('aria-invalid="true"');
    expect(nameInput).toContain(`value="${'N'.repeat(121)}"`);
    expect(tooLong.body).toMatch(
      /<p class="field-error" id="f-name-error">Please shorten this to 120 characters or fewer\.<\/p>/,
    );
    expect(tagWithId(tooLong.body, 'f-email')).not.toContain('aria-invalid');
    expect(tagWithId(tooLong.body, 'f-email')).toContain('value="ada@example.com"');
    expect(tooLong.body).toMatch(/id="contact-hint" class="hint">/);

    expect(await leadsOf(seeded.source.id)).toHaveLength(0);

    // Fixed, the same form goes through.
    const fixed = await post(`/f/${token}`, { name: 'N'.repeat(120), email: 'ada@example.com', notes: 'hi' });
    expect(fixed.statusCode).toBe(200);
    expect((await leadsOf(seeded.source.id)).map((l) => l.name)).toEqual(['N'.repeat(120)]);
  });

  it('answers an empty form sent at once with the missing-contact message, not a thank-you (nothing quarantined)', async () => {
    const fast = await (
      await world.app()
    ).inject({
      method: 'POST',
      url: `/f/${token}`,
      headers: FORM,
      payload: encode({ formStamp: world.ctx.formStamps.make(seeded.source.id, new Date()), name: '', notes: '' }),
    });
    expect(fast.statusCode).toBe(400);
    expect(fast.body).toMatch(/id="contact-hint" class="hint error">Please fill in your name, phone number or email/);
    expect(fast.body).toMatch(/<title>Please correct the form/);
    expect(await quarantineOf(seeded.source.id)).toEqual([]);
    // With a contact, the same fast post is the time trap's: thanked and quarantined.
    const filled = await (
      await world.app()
    ).inject({
      method: 'POST',
      url: `/f/${token}`,
      headers: FORM,
      payload: encode({ formStamp: world.ctx.formStamps.make(seeded.source.id, new Date()), name: 'Ada' }),
    });
    expect(filled.statusCode).toBe(200);
    expect((await quarantineOf(seeded.source.id)).map((r) => r.reason)).toEqual(['too_fast']);
  });

  it('makes one lead when the same rendered form is posted twice (its own idempotency key)', async () => {
    const page = (await get(`/f/${token}`)).body;
    const key = /<input type="hidden" name="idempotencyKey" value="([^"]+)">/.exec(page)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const other = /name="idempotencyKey" value="([^"]+)"/.exec((await get(`/f/${token}`)).body)?.[1];
    expect(other).not.toBe(key);

    const fields = { name: 'Twice', notes: 'double click', idempotencyKey: key! };
    const [first, second] = await Promise.all([post(`/f/${token}`, fields), post(`/f/${token}`, fields)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    const stored = await leadsOf(seeded.source.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.idempotency_key).toBe(key);
    expect(JSON.parse(stored[0]!.extra)).toEqual({});

    // A refused post frees its key, and the form shown again carries it for the corrected post.
    const refused = await post(`/f/${token}`, { notes: 'no contact', idempotencyKey: other! });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(`name="idempotencyKey" value="${other}"`);
    expect((await post(`/f/${token}`, { name: 'Fixed', idempotencyKey: other! })).statusCode).toBe(200);
    expect((await leadsOf(seeded.source.id)).map((l) => l.name).sort()).toEqual(['Fixed', 'Twice']);
  });

  it('answers a honeypot catch with the same thank-you page: no lead, one quarantine row', async () => {
    const person = await post(`/f/${token}`, { name: 'Ada' });
    const bot = await post(`/f/${token}`, {
      name: 'Spam Bot',
      email: 'bot@example.com',
      website: 'http://spam.example',
    });
    expect(bot.statusCode).toBe(200);
    expect(bot.body).toBe(person.body);
    const leads = await leadsOf(seeded.source.id);
    expect(leads.map((l) => l.name)).toEqual(['Ada']);
    const caught = await quarantineOf(seeded.source.id);
    expect(caught).toHaveLength(1);
    expect(caught[0]!.reason).toBe('honeypot');
    expect(JSON.parse(caught[0]!.fields)).toMatchObject({ name: 'Spam Bot', website: 'http://spam.example' });
  });

  it('answers an oversized no-script post with a 413 page, nothing stored', async () => {
    const res = await post(`/f/${token}`, { name: 'Ada', notes: 'x'.repeat(70 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('too long');
    expect(await leadsOf(seeded.source.id)).toHaveLength(0);
  });
});

describeEachBackend('hosted form rate limit', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend, { env: { INTAKE_RATE_LIMIT: '2' } });
  });
  afterEach(async () => {
    await world.close();
  });

  it('limits no-script posts like the intake, with a page a person can read', async () => {
    const seeded = await world.seed();
    const app = await world.app();
    const send = (name: string) =>
      app.inject({
        method: 'POST',
        url: `/f/${seeded.source.token}`,
        headers: FORM,
        payload: encode({ formStamp: readyStamp(world, seeded.source.id), name }),
      });
    expect((await send('One')).statusCode).toBe(200);
    expect((await send('Two')).statusCode).toBe(200);
    const limited = await send('Three');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Please wait a moment');
    const names = (
      await world.store.db.selectFrom('leads').select('name').where('source_id', '=', seeded.source.id).execute()
    ).map((l) => l.name);
    expect(names.sort()).toEqual(['One', 'Two']);
  });
});

describeEachBackend('hosted form with a bot check', (backend) => {
  const provider = fakeProvider();
  let verifyUrl: string;
  let world: TestWorld;
  let seeded: Seeded;

  beforeAll(async () => {
    verifyUrl = await provider.start();
  });
  afterAll(async () => {
    await provider.stop();
  });
  beforeEach(async () => {
    provider.asked.length = 0;
    world = await createWorld(backend, {
      env: { TURNSTILE_VERIFY_URL: verifyUrl, HCAPTCHA_VERIFY_URL: verifyUrl, RECAPTCHA_VERIFY_URL: verifyUrl },
    });
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const PROVIDERS: Record<BotCheckProvider, { script: string; className: string; field: string; origin: string }> = {
    turnstile: {
      script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
      className: 'cf-turnstile',
      field: 'cf-turnstile-response',
      origin: 'https://challenges.cloudflare.com',
    },
    hcaptcha: {
      script: 'https://js.hcaptcha.com/1/api.js',
      className: 'h-captcha',
      field: 'h-captcha-response',
      origin: 'https://*.hcaptcha.com',
    },
    recaptcha: {
      script: 'https://www.google.com/recaptcha/api.js',
      className: 'g-recaptcha',
      field: 'g-recaptcha-response',
      origin: 'https://www.google.com/recaptcha/',
    },
  };
  const ALL_ORIGINS = ['cloudflare.com', 'hcaptcha.com', 'google.com', 'gstatic.com'];

  for (const [name, expected] of Object.entries(PROVIDERS) as Array<
    [BotCheckProvider, (typeof PROVIDERS)[BotCheckProvider]]
  >) {
    describe(name, () => {
      beforeEach(async () => {
        await configureBotCheck({
          ctx: world.ctx,
          input: {
            sourceId: seeded.source.id,
            settings: { provider: name, secret: 'provider-secret', siteKey: 'site-key-<1>' },
          },
        });
      });

      it('renders the widget and allows only that provider in the CSP', async () => {
        const res = await (await world.app()).inject({ method: 'GET', url: `/f/${seeded.source.token}` });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain(`<div class="${expected.className}" data-sitekey="site-key-&lt;1&gt;"></div>`);
        expect(res.body).toContain(`<script src="${expected.script}" async defer></script>`);
        expect(res.body).toContain(`data-bot-check="${name}" data-bot-check-field="${expected.field}"`);
        expect(res.body).toContain('<noscript>');
        // The provider's script is the only third-party URL on the page.
        expect(res.body.match(/https:\/\/[^"\s]+/g)).toEqual([expected.script]);
        const csp = cspOf(res.headers);
        expect(csp.get('default-src')).toEqual(["'none'"]);
        expect(csp.get('script-src')).toContain("'self'");
        expect(csp.get('script-src')).toContain(expected.origin);
        expect(csp.get('frame-src')).toContain(expected.origin);
        expect(csp.get('form-action')).toEqual(["'self'"]);
        const others = ALL_ORIGINS.filter(
          (o) => !expected.origin.includes(o) && !(name === 'recaptcha' && o === 'gstatic.com'),
        );
        for (const other of others) expect(String(res.headers['content-security-policy'])).not.toContain(other);
      });

      it("maps the widget's own form field to botCheckToken on a no-script post", async () => {
        const app = await world.app();
        const url = `/f/${seeded.source.token}`;
        const without = await app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: encode({ formStamp: readyStamp(world, seeded.source.id), name: 'Ada' }),
        });
        expect(without.statusCode).toBe(400);
        expect(without.body).toContain('Please complete the “I am human” check');
        expect(tagWithId(without.body, 'f-name')).toContain('value="Ada"');

        const refused = await app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: encode({
            formStamp: readyStamp(world, seeded.source.id),
            name: 'Ada',
            [expected.field]: 'bad-token',
          }),
        });
        expect(refused.statusCode).toBe(400);
        expect(provider.asked.map((a) => a.response)).toEqual(['bad-token']);

        // hCaptcha fills g-recaptcha-response too; no provider field is ever kept as an extra field.
        const passed = await app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: encode({
            formStamp: readyStamp(world, seeded.source.id),
            name: 'Ada',
            [expected.field]: 'good-token',
            'g-recaptcha-response': name === 'recaptcha' ? 'good-token' : 'x',
          }),
        });
        expect(passed.statusCode).toBe(200);
        expect(passed.body).toContain('Thank you');
        expect(provider.asked.map((a) => a.response)).toEqual(['bad-token', 'good-token']);
        expect(provider.asked[1]!.secret).toBe('provider-secret');
        const leads = await world.store.db
          .selectFrom('leads')
          .selectAll()
          .where('source_id', '=', seeded.source.id)
          .execute();
        expect(leads).toHaveLength(1);
        expect(leads[0]!.bot_check).toBe('passed');
        expect(JSON.parse(leads[0]!.extra)).toEqual({});
      });
    });
  }
});

describeEachBackend('hosted form with reCAPTCHA v3 or without a site key', (backend) => {
  let fake: FakeSiteverify;
  let world: TestWorld;
  let seeded: Seeded;

  beforeAll(async () => {
    fake = await startFakeSiteverify();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(async () => {
    fake.calls.length = 0;
    world = await createWorld(backend, { env: fake.env() });
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const leadsOf = () =>
    world.store.db.selectFrom('leads').selectAll().where('source_id', '=', seeded.source.id).execute();
  const page = async () => (await world.app()).inject({ method: 'GET', url: `/f/${seeded.source.token}` });
  const noScriptPost = async (fields: Record<string, string>) =>
    (await world.app()).inject({
      method: 'POST',
      url: `/f/${seeded.source.token}`,
      headers: FORM,
      payload: encode({ formStamp: readyStamp(world, seeded.source.id), ...fields }),
    });

  it('renders no widget for v3: the script with ?render=<siteKey>, a no-script notice and a Google-only CSP', async () => {
    await configureBotCheck({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'recaptcha', secret: 'v3-secret', siteKey: 'v3 key<1>', minScore: 0.5 },
      },
    });
    const res = await page();
    expect(res.statusCode).toBe(200);
    const script = 'https://www.google.com/recaptcha/api.js?render=v3%20key%3C1%3E';
    expect(res.body).toContain(`<script src="${script}" async defer></script>`);
    expect(res.body.match(/https:\/\/[^"\s]+/g)).toEqual([script]);
    expect(res.body).not.toContain('g-recaptcha');
    expect(res.body).not.toContain('data-sitekey');
    const form = tagWithId(res.body.replace('<form', '<div'), 'lead-form');
    expect(form).toContain('data-bot-check="recaptcha-v3"');
    expect(form).toContain('data-site-key="v3 key&lt;1&gt;"');
    expect(form).not.toContain('data-bot-check-field');
    expect(res.body).toMatch(
      /<noscript><p class="field-error">This form uses a spam check that needs JavaScript\. Please turn JavaScript on to send it\.<\/p><\/noscript>/,
    );

    const csp = cspOf(res.headers);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(csp.get('frame-src')).toEqual([
      'https://www.google.com/recaptcha/',
      'https://recaptcha.google.com/recaptcha/',
    ]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    for (const other of ['cloudflare.com', 'hcaptcha.com'])
      expect(String(res.headers['content-security-policy'])).not.toContain(other);
  });

  it('answers a v3 no-script post with the form again and a field-less "needs JavaScript" error', async () => {
    await configureBotCheck({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'recaptcha', secret: 'v3-secret', siteKey: 'k', minScore: 0.5 },
      },
    });
    const res = await noScriptPost({ name: 'Ada', email: 'ada@example.com', 'g-recaptcha-response': '' });
    expect(res.statusCode).toBe(400);
    expect(cspOf(res.headers).get('script-src')).toContain('https://www.google.com/recaptcha/');
    expect(res.body).toContain('https://www.google.com/recaptcha/api.js?render=k');
    expect(tagWithId(res.body, 'form-status')).toContain('class="status error"');
    expect(res.body).toMatch(
      /id="form-status"[^>]*>This form uses a spam check that needs JavaScript\. Please turn JavaScript on to send it\.<\/p>/,
    );
    expect(res.body).not.toContain('I am human');
    for (const field of ['name', 'phone', 'email', 'address', 'notes'])
      expect(tagWithId(res.body, `f-${field}`)).not.toContain('aria-invalid');
    expect(tagWithId(res.body, 'f-name')).toContain('value="Ada"');
    expect(fake.calls).toEqual([]);
    expect(await leadsOf()).toHaveLength(0);
  });

  const NO_SITE_KEY: Array<[string, { provider: BotCheckProvider; minScore?: number }]> = [
    ['turnstile', { provider: 'turnstile' }],
    ['hcaptcha', { provider: 'hcaptcha' }],
    ['reCAPTCHA v2', { provider: 'recaptcha' }],
    ['reCAPTCHA v3', { provider: 'recaptcha', minScore: 0.5 }],
  ];
  for (const [label, settings] of NO_SITE_KEY) {
    it(`says the form is not set up (${label} without a site key), loading nothing from the provider`, async () => {
      await configureBotCheck({
        ctx: world.ctx,
        input: { sourceId: seeded.source.id, settings: { ...settings, secret: 'secret' } },
      });
      const res = await page();
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1>Acme</h1>');
      expect(res.body).toContain(
        '<p id="form-unavailable" class="notice" role="alert">This form is not set up completely; please contact us another way.</p>',
      );
      // No form that could never be sent, no widget, no provider script, no third-party URL at all.
      expect(res.body).not.toContain('<form');
      expect(res.body).not.toMatch(/cf-turnstile|h-captcha|g-recaptcha|data-sitekey/);
      expect(res.body).not.toMatch(/https?:\/\//);
      const csp = cspOf(res.headers);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.has('frame-src')).toBe(false);

      // A post from a page rendered earlier is refused (no token) and answered with the same notice.
      const refused = await noScriptPost({ name: 'Ada', email: 'ada@example.com' });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('This form is not set up completely; please contact us another way.');
      expect(refused.body).not.toContain('<form');
      expect(cspOf(refused.headers).get('script-src')).toEqual(["'self'"]);
      expect(fake.calls).toEqual([]);
      expect(await leadsOf()).toHaveLength(0);
    });
  }
});
