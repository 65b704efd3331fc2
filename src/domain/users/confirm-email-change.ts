import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { hashToken, looksLikeToken } from '../auth/secret-token.js';
import { useOneTimeLink } from '../auth/one-time-link.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { emailKey } from '../email-address.js';

const unusable = () =>
  new AppError('email_link_unusable', 'This link was already used, a newer one replaced it, or it has expired. Ask for the change again on your Account page.');

/** The change a usable confirmation link stands for (the page shows both addresses); refused when used, expired or unknown. */
export async function openEmailChange({ ctx, input }: VerbArgs<{ token: string }>): Promise<{ userId: string; email: string; newEmail: string }> {
  if (!looksLikeToken(input.token)) throw unusable();
  const row = await ctx.store.db
    .selectFrom('email_changes')
    .innerJoin('users', 'users.id', 'email_changes.user_id')
    .select(['email_changes.user_id', 'email_changes.new_email', 'email_changes.expires_at', 'email_changes.used_at', 'users.email'])
    .where('email_changes.token_hash', '=', hashToken(input.token))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= nowIso(ctx)) throw unusable();
  return { userId: row.user_id, email: row.email, newEmail: row.new_email };
}

/**
 * Opening the link sent to the new address: the email changes, and counts as proven (only someone who reads that
 * mailbox has the link). Used once, by the conditional UPDATE. The old address gets a notice in the same
 * transaction, so a change the person did not make does not go unseen. An address another account took meanwhile
 * is refused.
 */
export async function confirmEmailChange({
  ctx,
  input,
}: VerbArgs<{ token: string }>): Promise<{ userId: string; oldEmail: string; newEmail: string }> {
  const change = await openEmailChange({ ctx, input });
  const base = await linkBaseUrl(ctx);
  const now = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    if (!(await useOneTimeLink(trx, 'email_changes', input.token, now))) throw unusable();
    const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', change.userId).executeTakeFirstOrThrow();
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', emailKey(change.newEmail))
      .where('id', '!=', user.id)
      .executeTakeFirst();
    if (taken) throw new AppError('email_taken', `${change.newEmail} became the email of another account meanwhile; the change was not made`);
    await trx
      .updateTable('users')
      .set({ email: change.newEmail, email_key: emailKey(change.newEmail), email_proven_at: now, link_workspace_id: null })
      .where('id', '=', user.id)
      .execute();
    await enqueueEmail(trx, ctx, {
      purpose: 'email_change',
      to: user.email,
      userId: user.id,
      payload: { kind: 'email_changed', oldEmail: user.email, newEmail: change.newEmail, changedAt: now, signInUrl: `${base}/login` },
    });
    return { userId: user.id, oldEmail: user.email, newEmail: change.newEmail };
  });
}
