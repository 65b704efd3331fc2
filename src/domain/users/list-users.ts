import type { VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import type { Role } from './roles.js';

export interface UserView {
  id: string;
  email: string;
  displayName: string;
  passwordSet: boolean;
  memberships: Array<{ workspaceId: string; workspaceName: string; role: Role }>;
}

/** `leadscan user list [--workspace W]`: people by email, with their workspaces and roles. */
export async function listUsers({ ctx, input }: VerbArgs<{ workspace?: string }>): Promise<UserView[]> {
  const workspace = input.workspace ? await findWorkspace({ ctx, input: { ref: input.workspace } }) : null;
  const { db } = ctx.store;
  let users = db.selectFrom('users').select(['id', 'email', 'display_name', 'password_hash']).orderBy('email_key');
  if (workspace) {
    users = users.where('id', 'in', db.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspace.id));
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
      .filter((m) => m.user_id === row.id && (!workspace || m.workspace_id === workspace.id))
      .map((m) => ({ workspaceId: m.workspace_id, workspaceName: m.name, role: m.role as Role })),
  }));
}
