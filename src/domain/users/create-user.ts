import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { getWorkspace } from '../workspaces/find-workspace.js';
import { issueSetupLink } from '../auth/setup-links.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { linkBaseUrl } from '../server-base-url.js';
import { checkDisplayName, defaultDisplayName } from '../display-name.js';
import { checkEmail, emailKey } from '../email-address.js';
import { checkRole, type Role } from '../roles.js';

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
  /**
   * With email on, the person was emailed (the link, or a note to sign in and accept) and `setupUrl` is null: a
   * link only they saw proves their address. The inviter's answer is then the same for both outcomes.
   */
  emailed: boolean;
  setupUrl: string | null;
  expiresAt: string | null;
}

async function inviterName(ctx: VerbArgs<unknown>['ctx'], inviter: { userId: string; email: string }): Promise<string> {
  const row = await ctx.store.db
    .selectFrom('users')
    .select('display_name')
    .where('id', '=', inviter.userId)
    .executeTakeFirst();
  return row?.display_name.trim() || inviter.email;
}

/**
 * `leadscan user create` and the Members screen's invite. Nobody types a password for someone else, and nobody
 * gets a link to an account that already exists: that account belongs to whoever it was made for, who may not
 * have used their own link yet.
 */
export async function createUser({
  ctx,
  input,
}: VerbArgs<{
  email: string;
  workspaceId: string;
  role?: string;
  displayName?: string;
  invitedBy?: Inviter;
}>): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const role = checkRole(input.role ?? 'member');
  const displayName = input.displayName?.trim()
    ? checkDisplayName(input.displayName, 'name')
    : defaultDisplayName(email);
  const inviter = input.invitedBy ?? 'operator';
  // The invitation names the inviter as people know them: their name, else their email.
  const invitedBy = inviter === 'operator' ? 'the server operator' : await inviterName(ctx, inviter);
  const workspace = await getWorkspace({ ctx, input });
  const now = nowIso(ctx);
  const mailBase = ctx.mail ? await linkBaseUrl(ctx) : undefined;
  const result = await ctx.store.writer.write(async (trx) => {
    const existing = await trx
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email_key', '=', emailKey(email))
      .executeTakeFirst();
    if (existing) {
      const member = await trx
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', workspace.id)
        .where('user_id', '=', existing.id)
        .executeTakeFirst();
      if (member) {
        throw new AppError(
          'already_member',
          `${existing.email} is already a member of ${workspace.name} (${member.role})`,
          [{ field: 'email', code: 'invalid', message: `Already a member (${member.role})` }],
        );
      }
      // One invitation per person and workspace: inviting again renews it with the role chosen now.
      const invitation = {
        role,
        invited_by: invitedBy,
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
      if (mailBase !== undefined) {
        // No link to the account: a note to its own address that the invitation waits on the Account page.
        await enqueueEmail(trx, ctx, {
          purpose: 'invite',
          to: existing.email,
          workspaceId: workspace.id,
          userId: existing.id,
          payload: {
            kind: 'invite',
            workspaceName: workspace.name,
            invitedBy,
            link: `${mailBase}/login`,
            expiresAt: invitation.expires_at,
            existingAccount: true,
          },
        });
      }
      await recordAudit(trx, ctx, {
        action: 'member.invited',
        workspaceId: workspace.id,
        targetIds: [existing.id],
        details: { newAccount: false, owner: role === 'owner' },
      });
      return { userId: existing.id, link: null };
    }
    const userId = newId('usr');
    await trx
      .insertInto('users')
      .values({
        id: userId,
        email,
        email_key: emailKey(email),
        display_name: displayName,
        password_hash: null,
        created_at: now,
        password_changed_at: null,
        email_proven_at: null,
        link_workspace_id: null,
      })
      .execute();
    await trx
      .insertInto('memberships')
      .values({ workspace_id: workspace.id, user_id: userId, role, created_at: now })
      .execute();
    await recordAudit(trx, ctx, {
      action: 'member.invited',
      workspaceId: workspace.id,
      targetIds: [userId],
      details: { newAccount: true, owner: role === 'owner' },
    });
    if (mailBase !== undefined) {
      // Emailed, the link is seen by the person only, so setting the password through it proves the address.
      const link = await issueSetupLink(trx, ctx, userId, 'email', mailBase);
      await enqueueEmail(trx, ctx, {
        purpose: 'invite',
        to: email,
        workspaceId: workspace.id,
        userId,
        payload: {
          kind: 'invite',
          workspaceName: workspace.name,
          invitedBy,
          link: link.setupUrl,
          expiresAt: link.expiresAt,
          existingAccount: false,
        },
      });
      return { userId, link: null, added: true };
    }
    const witness = inviter === 'operator' ? 'operator' : { workspaceId: workspace.id };
    return { userId, link: await issueSetupLink(trx, ctx, userId, witness), added: true };
  });
  return {
    userId: result.userId,
    // The address as typed, not as stored: the answer must not differ for an email that has an account.
    email,
    workspaceId: workspace.id,
    role,
    outcome: 'added' in result ? 'added' : 'invited',
    emailed: mailBase !== undefined,
    setupUrl: result.link?.setupUrl ?? null,
    expiresAt: result.link?.expiresAt ?? null,
  };
}
