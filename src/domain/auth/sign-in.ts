import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { createSession, pruneSessions } from './sessions.js';
import { emailKey } from '../users/email.js';

export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

const WRONG = 'The email or password is not right. Check both and try again.';

function scopes(email: string, ip: string): string[] {
  return [`email:${emailKey(email)}`, `ip:${ip}`];
}

/**
 * Sign-in (CONTRACT §10). Throttled per email and per client IP: after 10 failures within 15 minutes either one
 * answers 429 before any password is checked. The counts live in the database, so every instance agrees. An
 * unknown email and a wrong password get the same answer and, through a dummy hash, about the same time.
 */
export async function signIn({
  ctx,
  input,
}: VerbArgs<{ email: string; password: string; ip: string }>): Promise<{ sessionId: string; userId: string }> {
  const keys = scopes(input.email, input.ip);
  const since = new Date(ctx.clock.now().getTime() - SIGN_IN_WINDOW_MS).toISOString();
  const counts = await ctx.store.db
    .selectFrom('sign_in_failures')
    .select(['scope', (eb) => eb.fn.countAll<number>().as('n')])
    .where('scope', 'in', keys)
    .where('failed_at', '>', since)
    .groupBy('scope')
    .execute();
  if (counts.some((c) => Number(c.n) >= SIGN_IN_MAX_FAILURES)) {
    throw new AppError('rate_limited', 'Too many failed sign-ins. Wait 15 minutes, or ask an owner for a new setup link', [], {
      'retry-after': String(SIGN_IN_WINDOW_MS / 1000),
    });
  }
  const user = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('email_key', '=', emailKey(input.email))
    .executeTakeFirst();
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !user.password_hash || !ok) {
    await recordFailure(ctx, keys, since);
    throw new AppError('invalid_credentials', WRONG, [{ field: 'password', code: 'invalid', message: WRONG }]);
  }
  await pruneSessions(ctx);
  const { sessionId } = await createSession({ ctx, input: { userId: user.id } });
  return { sessionId, userId: user.id };
}

async function recordFailure(ctx: DomainContext, keys: string[], since: string): Promise<void> {
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    await trx.deleteFrom('sign_in_failures').where('failed_at', '<=', since).execute();
    await trx
      .insertInto('sign_in_failures')
      .values(keys.map((scope) => ({ scope, failed_at: now })))
      .execute();
  });
}
