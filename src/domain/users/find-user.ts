import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { emailKey } from '../email-address.js';

export async function findUserByEmail({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { email: string };
}): Promise<{ id: string; email: string; displayName: string }> {
  const row = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'email', 'display_name'])
    .where('email_key', '=', emailKey(input.email))
    .executeTakeFirst();
  if (!row) throw new AppError('user_not_found', `No user has the email ${input.email.trim()}`);
  return { id: row.id, email: row.email, displayName: row.display_name };
}
