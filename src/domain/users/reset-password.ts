import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { issueSetupLink } from '../auth/setup-links.js';
import { findUserByEmail } from './find-user.js';

/**
 * `leadscan user reset-password`: a new one-time link (earlier unused links stop working). The current password
 * keeps working until the link is used; using it ends every session of the person. The link is printed on the
 * server only, so setting a password through it proves the email (and locks out whoever set it before).
 */
export async function resetPassword({
  ctx,
  input,
}: VerbArgs<{ email: string }>): Promise<{ userId: string; email: string; setupUrl: string; expiresAt: string }> {
  const user = await findUserByEmail({ ctx, input });
  const link = await ctx.store.writer.write(async (trx) => {
    const issued = await issueSetupLink(trx, ctx, user.id, 'operator');
    await recordAudit(trx, ctx, { action: 'user.password_reset', workspaceId: null, targetIds: [user.id] });
    return issued;
  });
  return { userId: user.id, email: user.email, ...link };
}
