import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import { RECAPTCHA_V3_ACTION, verifyBotCheck } from '../../src/domain/intake/verify-bot-check.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { findSourceByToken } from '../../src/domain/sources/find-source.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { FORM_ASSETS } from '../../src/web/form/assets.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/** A reCAPTCHA siteverify stand-in on loopback that answers whatever the test sets in `answer`. */
async function scriptedRecaptcha() {
  const state = { answer: {} as Record<string, unknown> };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.answer)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Finding 7: with a minimum score set, an answer needs a score and the hosted form's action. */
describeEachBackend('reCAPTCHA v3: score and action (finding 7)', (backend) => {
  let provider: Awaited<ReturnType<typeof scriptedRecaptcha>>;
  let world: TestWorld;
  let source: LeadSource;

  beforeAll(async () => {
    provider = await scriptedRecaptcha();
    world = await createWorld(backend, { env: { RECAPTCHA_VERIFY_URL: provider.url } });
    const { id: sourceId, token } = (await world.seed()).source;
    await configureBotCheck({
      ctx: world.ctx,
      input: { sourceId, settings: { provider: 'recaptcha', secret: 'v3-secret', minScore: 0.5 } },
    });
    source = (await findSourceByToken({ ctx: world.ctx, input: { token } }))!;
  });
  afterAll(async () => {
    await world?.close();
    await provider?.close();
  });

  const verify = () =>
    verifyBotCheck({ ctx: world.ctx, input: { source, token: 'token-from-widget', remoteIp: null } });
  const refusal = async () => {
    const error = await verify().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  };

  it("passes a v3 answer with a score at the minimum and the form's action", async () => {
    provider.state.answer = { success: true, score: 0.5, action: RECAPTCHA_V3_ACTION };
    expect(await verify()).toBe('passed');
  });

  it('refuses a successful answer without a score (a v2 token) when a minimum score is set', async () => {
    provider.state.answer = { success: true, action: RECAPTCHA_V3_ACTION };
    const error = await refusal();
    expect(error.code).toBe('bot_check_failed');
    expect(error.detail).toContain('no score');
  });

  it('refuses a token made for another action, or naming none', async () => {
    provider.state.answer = { success: true, score: 0.9, action: 'login' };
    expect((await refusal()).detail).toContain('"login"');
    provider.state.answer = { success: true, score: 0.9 };
    expect((await refusal()).code).toBe('bot_check_failed');
  });

  it('checks the very action the hosted form asks for', () => {
    expect(FORM_ASSETS['form.js']!.body).toMatch(new RegExp(`action: ['"]${RECAPTCHA_V3_ACTION}['"]`));
  });
});
