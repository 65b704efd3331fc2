import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { claimAttempt, SIGN_IN_LIMIT, type AttemptLimit } from '../auth/attempt-throttle.js';
import { credentialsFingerprint } from '../auth/credentials-fingerprint.js';
import { verifyPassword } from '../auth/password.js';
import { hashToken, mintToken } from '../auth/secret-token.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { checkEmail, emailKey } from '../email-address.js';

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export function emailChangeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/confirm-email/${token}`;
}

/** Email-change requests, counted whether the password was right or not: like sign-in, per person and per client. */
export const EMAIL_CHANGE_LIMIT: AttemptLimit = SIGN_IN_LIMIT;

/**
 * Account screen: a person asks to change their own email. Nothing changes yet: a one-time link goes to the new
 * address (only its hash is kept; a new request replaces older unused ones, and a password or email change ends it),
 * and the email changes when that link is opened (confirm-email-change.ts). The current password is asked first, so
 * a borrowed session cannot move the account to another address (and then reset its password there).
 *
 * The answer never says whether another account uses the address (docs/security.md): for a taken address the same
 * request is recorded and the same email sent, except that it carries no link and tells the address's owner that
 * someone tried to use it; the waiting change can never be confirmed. Every request counts towards a limit per
 * person and per client address (10 in 15 minutes, as sign-in), so the form cannot be used to sweep addresses.
 */
export async function requestEmailChange({
  ctx,
  input,
}: VerbArgs<{ userId: string; newEmail: string; currentPassword: string; ip: string }>): Promise<{
  newEmail: string;
  expiresAt: string;
}> {
  if (!ctx.mail) {
    throw new AppError(
      'email_not_configured',
      'Email is not set up on this server, so a new address cannot be confirmed',
      [
        {
          field: 'newEmail',
          code: 'invalid',
          message:
            'Email is not set up on this server, so a new address cannot be confirmed. Ask the person who runs ' +
            'Leadscan.',
        },
      ],
    );
  }
  const newEmail = checkEmail(input.newEmail, 'newEmail');
  await claimAttempt(
    ctx,
    [
      { scope: `email-change:${input.userId}`, limit: EMAIL_CHANGE_LIMIT },
      { scope: `email-change-ip:${input.ip}`, limit: EMAIL_CHANGE_LIMIT },
    ],
    'Too many email changes asked for. Wait 15 minutes and try again.',
  );
  const claim = await claimAttempt(
    ctx,
    [`user:${input.userId}`],
    'Too many wrong current passwords. Wait 15 minutes and try again.',
  );
  const row = await ctx.store.db
    .selectFrom('users')
    .select(['password_hash', 'email_key'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!row?.password_hash || !(await verifyPassword(input.currentPassword, row.password_hash))) {
    throw new AppError('invalid_fields', 'The current password is not right', [
      { field: 'emailPassword', code: 'invalid', message: 'This is not your current password' },
    ]);
  }
  await claim.release();
  // Tied to the password just checked: a change that lands before this request is written ends its link at once.
  const issuedFor = credentialsFingerprint(row);
  const base = await linkBaseUrl(ctx);
  const token = mintToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_TTL_MS).toISOString();
  await ctx.store.writer.write(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', input.userId)
      .executeTakeFirstOrThrow();
    if (emailKey(user.email) === emailKey(newEmail)) {
      throw new AppError('invalid_fields', 'This is already your email', [
        { field: 'newEmail', code: 'invalid', message: 'This is already your email' },
      ]);
    }
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', emailKey(newEmail))
      .executeTakeFirst();
    await trx.deleteFrom('email_changes').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    // Recorded either way, so the Account page shows the same waiting change; for a taken address nobody ever sees
    // the token (and the confirmation refuses a taken address anyway).
    await trx
      .insertInto('email_changes')
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        new_email: newEmail,
        created_at: nowIso(ctx),
        expires_at: expiresAt,
        used_at: null,
        issued_for: issuedFor,
      })
      .execute();
    await recordAudit(trx, ctx, { action: 'account.email_change_requested', workspaceId: null, targetIds: [user.id] });
    await enqueueEmail(trx, ctx, {
      purpose: 'email_change',
      workspaceId: null,
      to: newEmail,
      userId: user.id,
      payload: taken
        ? { kind: 'email_in_use', address: newEmail, signInUrl: `${base}/login` }
        : { kind: 'email_change', link: emailChangeUrl(base, token), expiresAt, newEmail },
    });
  });
  return { newEmail, expiresAt };
}

/** The change waiting for its link, for the Account screen; null when none is usable (a password change ends it). */
export async function pendingEmailChange({
  ctx,
  input,
}: VerbArgs<{ userId: string }>): Promise<{ newEmail: string; expiresAt: string } | null> {
  const row = await ctx.store.db
    .selectFrom('email_changes')
    .innerJoin('users', 'users.id', 'email_changes.user_id')
    .select([
      'email_changes.new_email',
      'email_changes.expires_at',
      'email_changes.issued_for',
      'users.password_hash',
      'users.email_key',
    ])
    .where('email_changes.user_id', '=', input.userId)
    .where('email_changes.used_at', 'is', null)
    .where('email_changes.expires_at', '>', nowIso(ctx))
    .orderBy('email_changes.created_at', 'desc')
    .executeTakeFirst();
  return row && row.issued_for === credentialsFingerprint(row)
    ? { newEmail: row.new_email, expiresAt: row.expires_at }
    : null;
}
