import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { issueSetupLink } from '../auth/setup-links.js';
import { checkEmail, emailKey } from './email.js';
import { checkRole, type Role } from './roles.js';

/** How long an invitation for an existing account waits to be accepted. */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** Who invites: a signed-in owner on the Members screen, or the operator running the CLI on the server. */
export type Inviter = { userId: string; email: string } | 'operator';

export interface CreatedUser {
  userId: string;
  email: string;
  workspaceId: string;
  role: Role;
  /**
   * `added`: the email had no account; it was made, is a member now, and `setupUrl` is its one-time link.
   * `invited`: the email has an account (password set or not); an invitation waits for the person to accept after
   * signing in. No link, and the same answer either way, so an invite neither hands over nor reveals an account.
   */
  outcome: 'added' | 'invited';
  setupUrl: string | null;
  expiresAt: string | null;
}

/**
 * `leadscan user create` and the Members screen's invite. Nobody types a password for someone else, and nobody
 * gets a link to an account that already exists: that account belongs to whoever it was made for, who may not
 * have used their own link yet.
 */
export async function createUser({
  ctx,
  input,
}: VerbArgs<{ email: string; workspace: string; role?: string; displayName?: string; invitedBy?: Inviter }>): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const role = checkRole(input.role ?? 'member');
  const inviter = input.invitedBy ?? 'operator';
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const now = nowIso(ctx);
  const result = await ctx.store.writer.write(async (trx) => {
    const existing = await trx.selectFrom('users').select(['id', 'email']).where('email_key', '=', emailKey(email)).executeTakeFirst();
    if (existing) {
      const member = await trx
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', workspace.id)
        .where('user_id', '=', existing.id)
        .executeTakeFirst();
      if (member) {
        throw new AppError('already_member', `${existing.email} is already a member of ${workspace.name} (${member.role})`, [
          { field: 'email', code: 'invalid', message: `Already a member (${member.role})` },
        ]);
      }
      // One invitation per person and workspace: inviting again renews it with the role chosen now.
      const invitation = {
        role,
        invited_by: inviter === 'operator' ? 'the server operator' : inviter.email,
        created_at: now,
        expires_at: new Date(Date.parse(now) + INVITATION_TTL_MS).toISOString(),
      };
      const renewed = await trx
        .updateTable('invitations')
        .set(invitation)
        .where('workspace_id', '=', workspace.id)
        .where('user_id', '=', existing.id)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) === 0) {
        await trx
          .insertInto('invitations')
          .values({ id: newId('inv'), workspace_id: workspace.id, user_id: existing.id, ...invitation })
          .execute();
      }
      return { userId: existing.id, link: null };
    }
    const userId = newId('usr');
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
        email_proven_at: null,
        link_workspace_id: null,
      })
      .execute();
    await trx.insertInto('memberships').values({ workspace_id: workspace.id, user_id: userId, role, created_at: now }).execute();
    const witness = inviter === 'operator' ? 'operator' : { workspaceId: workspace.id };
    return { userId, link: await issueSetupLink(trx, ctx, userId, witness) };
  });
  return {
    userId: result.userId,
    // The address as typed, not as stored: the answer must not differ for an email that has an account.
    email,
    workspaceId: workspace.id,
    role,
    outcome: result.link ? 'added' : 'invited',
    setupUrl: result.link?.setupUrl ?? null,
    expiresAt: result.link?.expiresAt ?? null,
  };
}
