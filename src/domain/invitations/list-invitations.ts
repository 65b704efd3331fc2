import { nowIso, type VerbArgs, type WorkspaceVerbArgs } from '../context.js';
import type { Role } from '../roles.js';

export interface InvitationForMe {
  invitationId: string;
  workspaceId: string;
  workspaceName: string;
  role: Role;
  invitedBy: string;
  expiresAt: string;
  /** False while the account has not proven its email for this workspace (see accept-invitation.ts). */
  canAccept: boolean;
}

export interface PendingInvitation {
  invitationId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** The Account screen: invitations waiting for the signed-in person, unexpired, oldest first. */
export async function listInvitationsFor({ ctx, input }: VerbArgs<{ userId: string }>): Promise<InvitationForMe[]> {
  const user = await ctx.store.db
    .selectFrom('users')
    .select(['email_proven_at', 'link_workspace_id'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!user) return [];
  const rows = await ctx.store.db
    .selectFrom('invitations')
    .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
    .select([
      'invitations.id',
      'invitations.workspace_id',
      'workspaces.name',
      'invitations.role',
      'invitations.invited_by',
      'invitations.expires_at',
    ])
    .where('invitations.user_id', '=', input.userId)
    .where('invitations.expires_at', '>', nowIso(ctx))
    .orderBy('invitations.created_at')
    .execute();
  return rows.map((r) => ({
    invitationId: r.id,
    workspaceId: r.workspace_id,
    workspaceName: r.name,
    role: r.role as Role,
    invitedBy: r.invited_by,
    expiresAt: r.expires_at,
    canAccept: mayJoin(user, r.workspace_id),
  }));
}

/** The Members screen: who was invited and has not accepted yet. */
export async function listPendingInvitations({
  ctx,
}: WorkspaceVerbArgs<Record<string, never>>): Promise<PendingInvitation[]> {
  const rows = await ctx.store.db
    .selectFrom('invitations')
    .innerJoin('users', 'users.id', 'invitations.user_id')
    .select([
      'invitations.id',
      'users.email',
      'invitations.role',
      'invitations.invited_by',
      'invitations.created_at',
      'invitations.expires_at',
    ])
    .where('invitations.workspace_id', '=', ctx.workspaceId)
    .where('invitations.expires_at', '>', nowIso(ctx))
    .orderBy('invitations.created_at')
    .execute();
  return rows.map((r) => ({
    invitationId: r.id,
    email: r.email,
    role: r.role as Role,
    invitedBy: r.invited_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}

/**
 * Whether an account may join a workspace by invitation: it proved its email (a link only the person or the
 * operator saw), or the invitation comes from the workspace that was shown the account's link anyway.
 */
export function mayJoin(
  user: { email_proven_at?: string | null; link_workspace_id?: string | null },
  workspaceId: string,
): boolean {
  return Boolean(user.email_proven_at) || user.link_workspace_id === workspaceId;
}
