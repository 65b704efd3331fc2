import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotCheckProvider } from '../../src/config.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { describeEachBackend } from '../helpers/backends.js';
import { startFakeSiteverify, type FakeSiteverify } from '../helpers/fake-siteverify.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

const PROVIDERS: BotCheckProvider[] = ['turnstile', 'hcaptcha', 'recaptcha'];
const SECRET = 'siteverify-secret-for-tests';

/**
 * The bot check at the intake endpoint, against a fake siteverify server on loopback, for each provider:
 * pass, refuse, missing token, provider down, provider slow. What is stored is read back from the database.
 */
describeEachBackend('bot check at POST /api/intake/{token}', (backend) => {
  let fake: FakeSiteverify;
  let world: TestWorld;
  let down: TestWorld;
  let seeded: Seeded;
  let downSeeded: Seeded;

  beforeAll(async () => {
    fake = await startFakeSiteverify();
    // 300 ms stands in for the 5 s production timeout so the "slow provider" cases stay quick.
    world = await createWorld(backend, { env: { ...fake.env(), BOT_CHECK_TIMEOUT_MS: '300' } });
    seeded = await world.seed();
    down = await createWorld(backend, { env: fake.downEnv() });
    downSeeded = await down.seed();
  });
  afterAll(async () => {
    await world?.close();
    await down?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.mode = 'pass';
    fake.score = 0.9;
    fake.calls = [];
  });

  async function post(target: TestWorld, token: string, body: Record<string, unknown>, ip = '198.51.100.7') {
    const app = await target.app();
    return app.inject({
      method: 'POST',
      url: `/api/intake/${token}`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  }

  const storedLeads = (target: TestWorld, name: string) =>
    target.store.db.selectFrom('leads').select(['id', 'bot_check', 'extra']).where('name', '=', name).execute();

  for (const provider of PROVIDERS) {
    describe(provider, () => {
      beforeAll(async () => {
        for (const [target, s] of [
          [world, seeded],
          [down, downSeeded],
        ] as const) {
          await configureBotCheck({
            ctx: target.ctx,
            input: {
              sourceId: s.source.id,
              settings: {
                provider,
                secret: SECRET,
                siteKey: 'site-key',
                ...(provider === 'recaptcha' ? { minScore: 0.5 } : {}),
              },
            },
          });
        }
      });

      it('pass: the lead is stored with botCheck "passed"; the provider got secret, token and client IP', async () => {
        const name = `${provider} pass`;
        const response = await post(world, seeded.source.token, { name, botCheckToken: 'good-token' });
        expect(response.statusCode).toBe(200);
        const [lead] = await storedLeads(world, name);
        expect(lead).toMatchObject({ id: response.json().id, bot_check: 'passed' });
        // botCheckToken is never stored as a field.
        expect(lead!.extra).not.toContain('good-token');
        expect(fake.calls).toEqual([
          expect.objectContaining({ provider, secret: SECRET, response: 'good-token', remoteip: '198.51.100.7' }),
        ]);
      });

      it('fail: a refused token is 400 bot_check_failed and nothing is stored', async () => {
        fake.mode = 'fail';
        const name = `${provider} fail`;
        const response = await post(world, seeded.source.token, { name, botCheckToken: 'bad-token' });
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.json()).toMatchObject({ code: 'bot_check_failed', status: 400 });
        expect(response.body).not.toContain(SECRET);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(await storedLeads(world, name)).toEqual([]);
      });

      it('missing token: 400 bot_check_failed without asking the provider; nothing stored', async () => {
        const name = `${provider} missing`;
        const response = await post(world, seeded.source.token, { name });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'bot_check_failed' });
        expect(fake.calls).toHaveLength(0);
        expect(await storedLeads(world, name)).toEqual([]);
      });

      it('provider down: the lead is kept with botCheck "unverified"', async () => {
        const name = `${provider} down`;
        const response = await post(down, downSeeded.source.token, { name, botCheckToken: 'any-token' });
        expect(response.statusCode).toBe(200);
        const [lead] = await storedLeads(down, name);
        expect(lead).toMatchObject({ id: response.json().id, bot_check: 'unverified' });
      });

      it('provider slower than the timeout: the lead is kept with botCheck "unverified"', async () => {
        fake.mode = 'slow';
        const name = `${provider} slow`;
        const response = await post(world, seeded.source.token, { name, botCheckToken: 'any-token' });
        expect(response.statusCode).toBe(200);
        expect(fake.calls).toHaveLength(1);
        const [lead] = await storedLeads(world, name);
        expect(lead).toMatchObject({ id: response.json().id, bot_check: 'unverified' });
      });
    });
  }

  it('recaptcha v3: a score under the source minimum is refused', async () => {
    await configureBotCheck({
      ctx: world.ctx,
      input: { sourceId: seeded.source.id, settings: { provider: 'recaptcha', secret: SECRET, minScore: 0.5 } },
    });
    fake.score = 0.2;
    const refused = await post(world, seeded.source.token, { name: 'low score', botCheckToken: 'tok' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'bot_check_failed' });
    expect(await storedLeads(world, 'low score')).toEqual([]);
    fake.score = 0.8;
    const passed = await post(world, seeded.source.token, { name: 'high score', botCheckToken: 'tok' });
    expect(passed.statusCode).toBe(200);
    expect(await storedLeads(world, 'high score')).toEqual([expect.objectContaining({ bot_check: 'passed' })]);
  });

  it('a source without a bot check stores leads with botCheck "off" and asks no provider', async () => {
    await configureBotCheck({ ctx: world.ctx, input: { sourceId: seeded.source.id, settings: { off: true } } });
    const response = await post(world, seeded.source.token, { name: 'no check' });
    expect(response.statusCode).toBe(200);
    expect(await storedLeads(world, 'no check')).toEqual([expect.objectContaining({ bot_check: 'off' })]);
    expect(fake.calls).toHaveLength(0);
  });
});
