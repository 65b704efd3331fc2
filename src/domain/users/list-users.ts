import type { VerbArgs } from '../context.js';
import type { Role } from '../roles.js';

export interface UserView {
  id: string;
  email: string;
  displayName: string;
  passwordSet: boolean;
  memberships: Array<{ workspaceId: string; workspaceName: string; role: Role }>;
}

/**
 * `leadscan user list [--workspace W]`: people by email, with their workspaces and roles; the members of one
 * workspace, or everyone on the server (`workspaceId: null`).
 */
export async function listUsers({ ctx, input }: VerbArgs<{ workspaceId: string | null }>): Promise<UserView[]> {
  const { workspaceId } = input;
  const { db } = ctx.store;
  let users = db.selectFrom('users').select(['id', 'email', 'display_name', 'password_hash']).orderBy('email_key');
  if (workspaceId) {
    users = users.where(
      'id',
      'in',
      db.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId),
    );
  }
  const rows = await users.execute();
  if (rows.length === 0) return [];
  const memberships = await db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['memberships.user_id', 'memberships.workspace_id', 'memberships.role', 'workspaces.name'])
    .where(
      'memberships.user_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('workspaces.name')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordSet: row.password_hash !== null,
    memberships: memberships
      .filter((m) => m.user_id === row.id && (!workspaceId || m.workspace_id === workspaceId))
      .map((m) => ({ workspaceId: m.workspace_id, workspaceName: m.name, role: m.role as Role })),
  }));
}
