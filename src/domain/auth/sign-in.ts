import { SYSTEM_ACTOR } from '../audit/actor.js';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { claimAttempt } from './attempt-throttle.js';
import { hasControlCharacters } from '../text-input.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { createSession, pruneSessions } from './sessions.js';
import { emailKey } from '../email-address.js';

export { MAX_FAILURES as SIGN_IN_MAX_FAILURES, WINDOW_MS as SIGN_IN_WINDOW_MS } from './attempt-throttle.js';

const WRONG = 'The email or password is not right. Check both and try again.';
const THROTTLED = 'Too many failed sign-ins. Wait 15 minutes, or ask an owner for a new setup link';

/**
 * Sign-in. Throttled per email and per client IP: after 10 failures within 15 minutes either one answers 429
 * before any password is checked. The attempt is claimed (counted as a failure) before the password is checked
 * and taken back when it was right, so parallel guesses cannot all slip under the limit. The counts live in the
 * database, so every instance agrees. An unknown email and a wrong password get the same answer and, through a
 * dummy hash, about the same time.
 */
export async function signIn({
  ctx,
  input,
}: VerbArgs<{ email: string; password: string; ip: string }>): Promise<{ sessionId: string; userId: string }> {
  // An email with a control character has no account (emails are checked when made): the same answer, and nothing
  // of it reaches the database.
  if (hasControlCharacters(input.email)) {
    throw new AppError('invalid_credentials', WRONG, [{ field: 'password', code: 'invalid', message: WRONG }]);
  }
  const findUser = (db: Kysely<Schema> | Transaction<Schema>) =>
    db
      .selectFrom('users')
      .select(['id', 'password_hash', 'display_name'])
      .where('email_key', '=', emailKey(input.email))
      .executeTakeFirst();
  // A refused sign-in is recorded by the server (the system), naming the account tried when there is one; only the
  // first refusal of a throttled email or address within its window, so hammering cannot fill the audit log.
  const recordThrottled = async (trx: Transaction<Schema>) => {
    const tried = await findUser(trx);
    await recordAudit(
      trx,
      { ...ctx, actor: SYSTEM_ACTOR },
      { action: 'sign_in.throttled', workspaceId: null, targetIds: tried ? [tried.id] : [] },
    );
  };
  const claim = await claimAttempt(
    ctx,
    [`email:${emailKey(input.email)}`, `ip:${input.ip}`],
    THROTTLED,
    recordThrottled,
  );
  const user = await findUser(ctx.store.db);
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !user.password_hash || !ok) {
    throw new AppError('invalid_credentials', WRONG, [{ field: 'password', code: 'invalid', message: WRONG }]);
  }
  await claim.release();
  await pruneSessions(ctx);
  const { sessionId } = await createSession({
    ctx,
    input: { userId: user.id, signIn: { displayName: user.display_name } },
  });
  return { sessionId, userId: user.id };
}
