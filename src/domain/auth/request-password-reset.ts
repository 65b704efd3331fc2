import type { VerbArgs } from '../context.js';
import { AppError, isAppError } from '../errors.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { checkEmail, emailKey } from '../email-address.js';
import { claimAttempt, SIGN_IN_LIMIT, type AttemptLimit } from './attempt-throttle.js';
import { issueSetupLink } from './setup-links.js';

/** At most 5 reset emails per address per hour, whoever asks. */
export const RESET_PER_EMAIL: AttemptLimit = { max: 5, windowMs: 60 * 60 * 1000 };
/** And the same per-address limit as sign-in per client IP, so one client cannot mail every address on the server. */
export const RESET_PER_IP: AttemptLimit = SIGN_IN_LIMIT;

/**
 * Forgot password (docs/security.md). The answer never says whether the address has an account: the caller shows
 * the same page either way, and throttled requests get it too, with nothing sent. For an account, a new one-time
 * link (earlier unused ones stop working) goes into the outbox addressed to the account's own stored email, never
 * to what was typed, in one transaction. Both branches run one claim and one write transaction and the email is
 * sent later by the notifier, so the answer takes about the same time for known and unknown addresses.
 */
export async function requestPasswordReset({ ctx, input }: VerbArgs<{ email: string; ip: string }>): Promise<void> {
  if (!ctx.mail) {
    throw new AppError(
      'email_not_configured',
      'Email is not set up on this server: ask an owner, or the person who runs it, for a new link',
    );
  }
  const email = checkEmail(input.email);
  try {
    await claimAttempt(
      ctx,
      [
        { scope: `reset-email:${emailKey(email)}`, limit: RESET_PER_EMAIL },
        { scope: `reset-ip:${input.ip}`, limit: RESET_PER_IP },
      ],
      'Too many password reset requests',
    );
  } catch (error) {
    // Throttled: the same answer, and nothing is sent.
    if (isAppError(error) && error.code === 'rate_limited') return;
    throw error;
  }
  const base = await linkBaseUrl(ctx);
  await ctx.store.writer.write(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email_key', '=', emailKey(email))
      .executeTakeFirst();
    if (!user) return;
    const link = await issueSetupLink(trx, ctx, user.id, 'email', base);
    await enqueueEmail(trx, ctx, {
      purpose: 'password_reset',
      workspaceId: null,
      to: user.email,
      userId: user.id,
      payload: { kind: 'password_reset', link: link.setupUrl, expiresAt: link.expiresAt },
    });
  });
}
