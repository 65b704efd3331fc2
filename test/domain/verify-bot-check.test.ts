import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotCheckProvider } from '../../src/config.js';
import type { DomainContext } from '../../src/domain/context.js';
import { AppError } from '../../src/domain/errors.js';
import { verifyBotCheck, type BotCheckLog } from '../../src/domain/intake/verify-bot-check.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { findSourceByToken } from '../../src/domain/sources/find-source.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { describeEachBackend } from '../helpers/backends.js';
import { startFakeSiteverify, type FakeSiteverify } from '../helpers/fake-siteverify.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

const PROVIDERS: BotCheckProvider[] = ['turnstile', 'hcaptcha', 'recaptcha'];
const SECRET = 'provider-secret-0123456789';

function recordingLog(): BotCheckLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (details, message) => lines.push(`${message} ${JSON.stringify(details)}`) };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the bot check to refuse');
}

describeEachBackend('verifyBotCheck', (backend) => {
  let fake: FakeSiteverify;
  let world: TestWorld;
  let token: string;
  let sourceId: string;

  beforeAll(async () => {
    fake = await startFakeSiteverify();
    // 2 s stands in for the 5 s production timeout: the "slow provider" case stays quick, and a loaded machine's
    // answer from the fake on loopback (300 ms was once too short under a busy CI) is not taken for a timeout.
    world = await createWorld(backend, { env: { ...fake.env(), BOT_CHECK_TIMEOUT_MS: '2000' } });
    ({ token, id: sourceId } = (await world.seed()).source);
  });
  afterAll(async () => {
    await world?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.mode = 'pass';
    fake.score = 0.9;
    fake.calls = [];
  });

  async function sourceWith(provider: BotCheckProvider, minScore?: number): Promise<LeadSource> {
    await configureBotCheck({
      ctx: world.ctx,
      input: { sourceId, settings: { provider, secret: SECRET, ...(minScore === undefined ? {} : { minScore }) } },
    });
    return (await findSourceByToken({ ctx: world.ctx, input: { token } }))!;
  }

  it('is off for a source without a bot check, and asks no provider', async () => {
    await configureBotCheck({ ctx: world.ctx, input: { sourceId, settings: { off: true } } });
    const source = (await findSourceByToken({ ctx: world.ctx, input: { token } }))!;
    await expect(verifyBotCheck({ ctx: world.ctx, input: { source, token: undefined, remoteIp: null } })).resolves.toBe(
      'off',
    );
    expect(fake.calls).toHaveLength(0);
  });

  for (const provider of PROVIDERS) {
    describe(provider, () => {
      it('passes a token the provider accepts, sending secret, response and remoteip form-encoded', async () => {
        const source = await sourceWith(provider);
        const outcome = await verifyBotCheck({
          ctx: world.ctx,
          input: { source, token: 'tok-good', remoteIp: '203.0.113.9' },
        });
        expect(outcome).toBe('passed');
        expect(fake.calls).toEqual([
          {
            provider,
            secret: SECRET,
            response: 'tok-good',
            remoteip: '203.0.113.9',
            contentType: 'application/x-www-form-urlencoded',
          },
        ]);
      });

      it('refuses a token the provider refuses with bot_check_failed', async () => {
        const source = await sourceWith(provider);
        fake.mode = 'fail';
        const error = await failure(
          verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok-bad', remoteIp: null } }),
        );
        expect(error.code).toBe('bot_check_failed');
        expect(error.detail).toMatch(/invalid-input-response/);
        expect(error.detail).not.toContain(SECRET);
        expect(fake.calls[0]!.remoteip).toBeNull();
      });

      it('refuses a missing or blank token without asking the provider', async () => {
        const source = await sourceWith(provider);
        for (const missing of [undefined, '', '   ']) {
          const error = await failure(
            verifyBotCheck({ ctx: world.ctx, input: { source, token: missing, remoteIp: null } }),
          );
          expect(error.code).toBe('bot_check_failed');
          expect(error.detail).toMatch(/botCheckToken is missing/);
        }
        expect(fake.calls).toHaveLength(0);
      });

      it('keeps the lead as unverified when the provider is down, and logs without secrets', async () => {
        const source = await sourceWith(provider);
        const downCtx: DomainContext = {
          ...world.ctx,
          config: {
            ...world.config,
            botCheckVerifyUrls: {
              ...world.config.botCheckVerifyUrls,
              [provider]: fake.downEnv()[`${provider.toUpperCase()}_VERIFY_URL`]!,
            },
          },
        };
        const log = recordingLog();
        const outcome = await verifyBotCheck({
          ctx: downCtx,
          input: { source, token: 'tok-secret-token', remoteIp: null, log },
        });
        expect(outcome).toBe('unverified');
        expect(log.lines).toHaveLength(1);
        expect(log.lines[0]).toMatch(/ECONNREFUSED/);
        expect(log.lines[0]).not.toContain(SECRET);
        expect(log.lines[0]).not.toContain('tok-secret-token');
      });

      it('keeps the lead as unverified when the provider is slower than the timeout', async () => {
        const source = await sourceWith(provider);
        fake.mode = 'slow';
        const log = recordingLog();
        const outcome = await verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null, log } });
        expect(outcome).toBe('unverified');
        expect(fake.calls).toHaveLength(1);
        expect(log.lines[0]).toMatch(/no answer within 2000 ms/);
      });

      it('keeps the lead as unverified when the provider answers 5xx or blames the secret', async () => {
        const source = await sourceWith(provider);
        fake.mode = 'error';
        await expect(verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null } })).resolves.toBe(
          'unverified',
        );
        fake.mode = 'secret-error';
        await expect(verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null } })).resolves.toBe(
          'unverified',
        );
      });
    });
  }

  it('applies the reCAPTCHA v3 score threshold', async () => {
    const source = await sourceWith('recaptcha', 0.5);
    fake.score = 0.7;
    await expect(verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null } })).resolves.toBe(
      'passed',
    );
    fake.score = 0.5;
    await expect(verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null } })).resolves.toBe(
      'passed',
    );
    fake.score = 0.3;
    const error = await failure(verifyBotCheck({ ctx: world.ctx, input: { source, token: 'tok', remoteIp: null } }));
    expect(error.code).toBe('bot_check_failed');
    expect(error.detail).toMatch(/score 0.3 is below 0.5/);
  });
});
