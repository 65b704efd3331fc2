import type { BotCheckProvider } from '../../config.js';
import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import { readBotCheckSecret } from '../sources/find-source.js';
import type { LeadSource } from '../sources/source.js';

export type BotCheckOutcome = 'off' | 'passed' | 'unverified';

/** The slice of a pino/Fastify logger this verb uses; optional so the CLI and tests can omit it. */
export interface BotCheckLog {
  warn(details: object, message: string): void;
}

/** What every siteverify endpoint answers (Turnstile, hCaptcha and reCAPTCHA share this shape). */
interface SiteverifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  'error-codes'?: unknown;
}

/**
 * Error codes that say the operator's configuration (or the provider itself) is at fault, not the visitor's
 * token. Refusing the lead for these would lose real leads over a typo in the secret, so they count as
 * "unverified" and are logged for the operator instead.
 */
const OPERATOR_SIDE_ERRORS = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
  'invalid-keys',
  'internal-error',
]);

const PROVIDER_NAMES: Record<BotCheckProvider, string> = {
  turnstile: 'Cloudflare Turnstile',
  hcaptcha: 'hCaptcha',
  recaptcha: 'Google reCAPTCHA',
};

/**
 * The action the hosted form names when it asks reCAPTCHA v3 for a token (`grecaptcha.execute(siteKey, { action:
 * 'submit' })`, web/form/form-client.ts). A v3 token made for another action (another page of the same site, say)
 * is not a token for this form.
 */
export const RECAPTCHA_V3_ACTION = 'submit';

type Verdict = { kind: 'passed' } | { kind: 'refused'; reason: string } | { kind: 'unverified'; reason: string };

/**
 * Bot check for one intake submission (docs/api.md). Off when the source has none. Absent or refused token:
 * AppError('bot_check_failed'). Provider unreachable, erroring, or slower than BOT_CHECK_TIMEOUT_MS:
 * 'unverified' (the lead is still stored; a provider outage never loses a real lead). Called before the store
 * step, never inside a write transaction.
 */
export async function verifyBotCheck({
  ctx,
  input,
}: VerbArgs<{
  source: LeadSource;
  token: string | undefined;
  remoteIp: string | null;
  log?: BotCheckLog;
}>): Promise<BotCheckOutcome> {
  const settings = input.source.botCheck;
  if (!settings) return 'off';
  const provider = settings.provider;
  const token = input.token?.trim();
  if (!token) {
    throw new AppError(
      'bot_check_failed',
      `This form is protected by ${PROVIDER_NAMES[provider]}: complete the check and send the form again ` +
        `(botCheckToken is missing)`,
    );
  }
  const secret = await readBotCheckSecret({ ctx, input: { sourceId: input.source.id } });
  if (!secret) {
    input.log?.warn(
      { provider, sourceId: input.source.id },
      'bot check on but no provider secret is stored; lead kept as unverified',
    );
    return 'unverified';
  }

  const verdict = await askProvider({
    url: ctx.config.botCheckVerifyUrls[provider],
    timeoutMs: ctx.config.botCheckTimeoutMs,
    form: { secret, response: token, ...(input.remoteIp ? { remoteip: input.remoteIp } : {}) },
    minScore: provider === 'recaptcha' ? settings.minScore : null,
  });
  switch (verdict.kind) {
    case 'passed':
      return 'passed';
    case 'unverified':
      // Never the secret or the token: only which provider failed and how.
      input.log?.warn(
        { provider, sourceId: input.source.id, reason: verdict.reason },
        'bot-check provider unavailable; lead kept as unverified',
      );
      return 'unverified';
    case 'refused':
      throw new AppError(
        'bot_check_failed',
        `${PROVIDER_NAMES[provider]} did not accept the check (${verdict.reason}); complete the check again and ` +
          `resend the form`,
      );
  }
}

async function askProvider(args: {
  url: string;
  timeoutMs: number;
  form: Record<string, string>;
  minScore: number | null;
}): Promise<Verdict> {
  let answer: SiteverifyAnswer;
  try {
    const response = await fetch(args.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(args.form).toString(),
      // Covers connecting, waiting and reading the body: a provider slower than this counts as unreachable.
      signal: AbortSignal.timeout(args.timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'unverified', reason: `HTTP ${response.status}` };
    }
    answer = (await response.json()) as SiteverifyAnswer;
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return { kind: 'unverified', reason: `no answer within ${args.timeoutMs} ms` };
    }
    if (error instanceof SyntaxError) return { kind: 'unverified', reason: 'answer is not JSON' };
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return { kind: 'unverified', reason: typeof cause?.code === 'string' ? cause.code : name };
  }
  if (!answer || typeof answer !== 'object') return { kind: 'unverified', reason: 'answer is not a JSON object' };

  const codes = Array.isArray(answer['error-codes'])
    ? answer['error-codes'].filter((c): c is string => typeof c === 'string')
    : [];
  if (answer.success !== true) {
    const operatorSide = codes.filter((c) => OPERATOR_SIDE_ERRORS.has(c));
    if (operatorSide.length > 0) return { kind: 'unverified', reason: `provider error ${operatorSide.join(', ')}` };
    return { kind: 'refused', reason: codes.length > 0 ? codes.join(', ') : 'token not valid' };
  }
  // reCAPTCHA v3 scores from 0.0 (bot) to 1.0 (person). With a minimum configured, an answer must carry a score
  // (a v2 answer has none: a v2 token, or a v2 secret, cannot pass a v3 check) and name the form's action.
  if (args.minScore !== null) {
    if (typeof answer.score !== 'number')
      return { kind: 'refused', reason: 'the answer has no score; a reCAPTCHA v3 token is needed' };
    if (answer.score < args.minScore)
      return { kind: 'refused', reason: `score ${answer.score} is below ${args.minScore}` };
    if (answer.action !== RECAPTCHA_V3_ACTION) {
      const action = typeof answer.action === 'string' ? `"${answer.action.slice(0, 40)}"` : 'missing';
      return { kind: 'refused', reason: `the token's action is ${action}, not "${RECAPTCHA_V3_ACTION}"` };
    }
  }
  return { kind: 'passed' };
}
