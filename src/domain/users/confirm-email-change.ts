import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { usableLinkOwner, useOneTimeLink } from '../auth/one-time-link.js';
import { hashToken, looksLikeToken } from '../auth/secret-token.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { emailKey } from '../email-address.js';

const unusable = () =>
  new AppError(
    'email_link_unusable',
    'This link was already used, a newer one replaced it, your password or email changed since, or it has expired. ' +
      'Ask for the change again on your Account page.',
  );

/**
 * The change a usable confirmation link stands for (the page shows both addresses); refused when used, expired,
 * unknown, replaced, or asked for before the account's password or email last changed.
 */
export async function openEmailChange({
  ctx,
  input,
}: VerbArgs<{ token: string }>): Promise<{ userId: string; email: string; newEmail: string }> {
  if (!looksLikeToken(input.token)) throw unusable();
  const userId = await usableLinkOwner(ctx.store.db, 'email_changes', input.token, nowIso(ctx));
  if (userId === null) throw unusable();
  const row = await ctx.store.db
    .selectFrom('email_changes')
    .innerJoin('users', 'users.id', 'email_changes.user_id')
    .select(['email_changes.new_email', 'users.email'])
    .where('email_changes.token_hash', '=', hashToken(input.token))
    .executeTakeFirstOrThrow();
  return { userId, email: row.email, newEmail: row.new_email };
}

/**
 * Opening the link sent to the new address: the email changes. Used once, by the conditional UPDATE. The old address
 * gets a notice in the same transaction, so a change the person did not make does not go unseen. An address another
 * account took meanwhile is refused.
 *
 * The link proves only that whoever holds the account reads the new mailbox, so what the account has proven stays as
 * it was (docs/security.md): an account whose password was set through a link an inviter saw stays held to that
 * workspace. Invitations belong to the address they were sent to, so the ones waiting for the old address go.
 */
export async function confirmEmailChange({
  ctx,
  input,
}: VerbArgs<{ token: string }>): Promise<{ userId: string; oldEmail: string; newEmail: string }> {
  const change = await openEmailChange({ ctx, input });
  const base = await linkBaseUrl(ctx);
  const now = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    if (!(await useOneTimeLink(trx, ctx.store.ops, 'email_changes', input.token, now))) throw unusable();
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email', 'email_proven_at'])
      .where('id', '=', change.userId)
      .executeTakeFirstOrThrow();
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', emailKey(change.newEmail))
      .where('id', '!=', user.id)
      .executeTakeFirst();
    if (taken)
      throw new AppError(
        'email_taken',
        `${change.newEmail} became the email of another account meanwhile; the change was not made`,
      );
    await trx
      .updateTable('users')
      // A proven account has proven the new address too; an unproven one stays exactly as unproven as it was.
      .set({
        email: change.newEmail,
        email_key: emailKey(change.newEmail),
        ...(user.email_proven_at ? { email_proven_at: now } : {}),
      })
      .where('id', '=', user.id)
      .execute();
    await trx.deleteFrom('invitations').where('user_id', '=', user.id).execute();
    await enqueueEmail(trx, ctx, {
      purpose: 'email_change',
      workspaceId: null,
      to: user.email,
      userId: user.id,
      payload: {
        kind: 'email_changed',
        oldEmail: user.email,
        newEmail: change.newEmail,
        changedAt: now,
        signInUrl: `${base}/login`,
      },
    });
    return { userId: user.id, oldEmail: user.email, newEmail: change.newEmail };
  });
}
