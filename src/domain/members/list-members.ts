import type { WorkspaceVerbArgs } from '../context.js';
import type { Role } from '../roles.js';

export interface MemberView {
  userId: string;
  email: string;
  displayName: string;
  role: Role;
  /** False until the person used their setup link. */
  passwordSet: boolean;
  since: string;
}

/** The Members screen: everyone in the workspace, owners first, then by email. */
export async function listMembers({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<MemberView[]> {
  const rows = await ctx.store.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'users.id',
      'users.email',
      'users.display_name',
      'users.password_hash',
      'memberships.role',
      'memberships.created_at',
    ])
    .where('memberships.workspace_id', '=', ctx.workspaceId)
    .orderBy('memberships.role', 'desc')
    .orderBy('users.email_key')
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    email: r.email,
    displayName: r.display_name,
    role: r.role as Role,
    passwordSet: r.password_hash !== null,
    since: r.created_at,
  }));
}
