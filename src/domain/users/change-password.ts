import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { claimAttempt } from '../auth/attempt-throttle.js';
import { checkNewPassword, hashPassword, verifyPassword } from '../auth/password.js';

/**
 * Account screen: the current password, then the new one. Every other session of the person ends
 * (docs/security.md); the one in use stays signed in.
 */
export async function changePassword({
  ctx,
  input,
}: VerbArgs<{ userId: string; currentPassword: string; newPassword: string; keepSessionHash: string }>): Promise<void> {
  // Guessing the current password from a signed-in session is throttled like sign-in, per person.
  const claim = await claimAttempt(
    ctx,
    [`user:${input.userId}`],
    'Too many wrong current passwords. Wait 15 minutes and try again.',
  );
  const row = await ctx.store.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!row?.password_hash || !(await verifyPassword(input.currentPassword, row.password_hash))) {
    throw new AppError('invalid_fields', 'The current password is not right', [
      { field: 'currentPassword', code: 'invalid', message: 'This is not your current password' },
    ]);
  }
  await claim.release();
  const passwordHash = await hashPassword(checkNewPassword(input.newPassword, 'newPassword'));
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', input.userId)
      .execute();
    await trx
      .deleteFrom('sessions')
      .where('user_id', '=', input.userId)
      .where('id_hash', '!=', input.keepSessionHash)
      .execute();
    await recordAudit(trx, ctx, { action: 'account.password_changed', workspaceId: null, targetIds: [input.userId] });
  });
}
