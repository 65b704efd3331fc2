import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { claimAttempt } from '../auth/attempt-throttle.js';
import { verifyPassword } from '../auth/password.js';
import { hashToken, mintToken } from '../auth/secret-token.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { checkEmail, emailKey } from '../email-address.js';

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export function emailChangeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/confirm-email/${token}`;
}

/**
 * Account screen: a person asks to change their own email. Nothing changes yet: a one-time link goes to the new
 * address (only its hash is kept; a new request replaces older unused ones), and the email changes when that link is
 * opened (confirm-email-change.ts), which proves the new address. The current password is asked first, so a
 * borrowed session cannot move the account to another address (and then reset its password there).
 */
export async function requestEmailChange({
  ctx,
  input,
}: VerbArgs<{ userId: string; newEmail: string; currentPassword: string }>): Promise<{ newEmail: string; expiresAt: string }> {
  if (!ctx.mail) {
    throw new AppError('email_not_configured', 'Email is not set up on this server, so a new address cannot be confirmed', [
      { field: 'newEmail', code: 'invalid', message: 'Email is not set up on this server, so a new address cannot be confirmed. Ask the person who runs Leadscan.' },
    ]);
  }
  const newEmail = checkEmail(input.newEmail, 'newEmail');
  const claim = await claimAttempt(ctx, [`user:${input.userId}`], 'Too many wrong current passwords. Wait 15 minutes and try again.');
  const row = await ctx.store.db.selectFrom('users').select('password_hash').where('id', '=', input.userId).executeTakeFirst();
  if (!row?.password_hash || !(await verifyPassword(input.currentPassword, row.password_hash))) {
    throw new AppError('invalid_fields', 'The current password is not right', [
      { field: 'emailPassword', code: 'invalid', message: 'This is not your current password' },
    ]);
  }
  await claim.release();
  const base = await linkBaseUrl(ctx);
  const token = mintToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_TTL_MS).toISOString();
  await ctx.store.writer.write(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', input.userId).executeTakeFirstOrThrow();
    if (emailKey(user.email) === emailKey(newEmail)) {
      throw new AppError('invalid_fields', 'This is already your email', [{ field: 'newEmail', code: 'invalid', message: 'This is already your email' }]);
    }
    // It is the person's own account asking, so saying the address is taken reveals nothing they may not know.
    const taken = await trx.selectFrom('users').select('id').where('email_key', '=', emailKey(newEmail)).executeTakeFirst();
    if (taken) {
      throw new AppError('email_taken', `${newEmail} is already the email of another account`, [
        { field: 'newEmail', code: 'invalid', message: 'Another account already uses this email' },
      ]);
    }
    await trx.deleteFrom('email_changes').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    await trx
      .insertInto('email_changes')
      .values({ token_hash: hashToken(token), user_id: user.id, new_email: newEmail, created_at: nowIso(ctx), expires_at: expiresAt, used_at: null })
      .execute();
    await recordAudit(trx, ctx, { action: 'account.email_change_requested', workspaceId: null, targetIds: [user.id] });
    await enqueueEmail(trx, ctx, {
      purpose: 'email_change',
      to: newEmail,
      userId: user.id,
      payload: { kind: 'email_change', link: emailChangeUrl(base, token), expiresAt, newEmail },
    });
  });
  return { newEmail, expiresAt };
}

/** The change waiting for its link, for the Account screen; null when none is usable. */
export async function pendingEmailChange({ ctx, input }: VerbArgs<{ userId: string }>): Promise<{ newEmail: string; expiresAt: string } | null> {
  const row = await ctx.store.db
    .selectFrom('email_changes')
    .select(['new_email', 'expires_at'])
    .where('user_id', '=', input.userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso(ctx))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row ? { newEmail: row.new_email, expiresAt: row.expires_at } : null;
}
