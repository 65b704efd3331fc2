import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { issueSetupLink } from '../auth/setup-links.js';
import { checkEmail, emailKey } from './email.js';
import { checkRole, type Role } from './roles.js';

export interface CreatedUser {
  userId: string;
  email: string;
  workspaceId: string;
  role: Role;
  /** The one-time set-password link; null when the person already has a password (they just sign in). */
  setupUrl: string | null;
  expiresAt: string | null;
}

/**
 * `leadscan user create` and the Members screen's invite: the person becomes a member of the workspace, and
 * gets a one-time link to set a password unless they already have one. Nobody types a password for someone else.
 */
export async function createUser({
  ctx,
  input,
}: VerbArgs<{ email: string; workspace: string; role?: string; displayName?: string }>): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const role = checkRole(input.role ?? 'member');
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const now = nowIso(ctx);
  const result = await ctx.store.writer.write(async (trx) => {
    const existing = await trx
      .selectFrom('users')
      .select(['id', 'email', 'password_hash'])
      .where('email_key', '=', emailKey(email))
      .executeTakeFirst();
    const userId = existing?.id ?? newId('usr');
    if (existing) {
      const member = await trx
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', workspace.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (member) {
        throw new AppError('already_member', `${existing.email} is already a member of ${workspace.name} (${member.role})`, [
          { field: 'email', code: 'invalid', message: `Already a member (${member.role})` },
        ]);
      }
    } else {
      await trx
        .insertInto('users')
        .values({
          id: userId,
          email,
          email_key: emailKey(email),
          display_name: input.displayName?.trim() || email.split('@')[0] || email,
          password_hash: null,
          created_at: now,
          password_changed_at: null,
        })
        .execute();
    }
    await trx.insertInto('memberships').values({ workspace_id: workspace.id, user_id: userId, role, created_at: now }).execute();
    const link = existing?.password_hash ? null : await issueSetupLink(trx, ctx, userId);
    return { userId, email: existing?.email ?? email, link };
  });
  return {
    userId: result.userId,
    email: result.email,
    workspaceId: workspace.id,
    role,
    setupUrl: result.link?.setupUrl ?? null,
    expiresAt: result.link?.expiresAt ?? null,
  };
}
