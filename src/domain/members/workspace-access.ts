import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { Role } from '../roles.js';

export interface WorkspaceAccess {
  workspaceId: string;
  workspaceName: string;
  role: Role;
  /** The workspace's locale, when read with the access: how its pages write dates (docs/admin-app.md, "Dates"). */
  locale?: string;
}

/**
 * The signed-in person's role in a workspace, read on every request (docs/security.md): a removed member is out on
 * the next request. A workspace the person is not a member of answers exactly like one that does not exist.
 */
export async function workspaceAccess({
  ctx,
  input,
}: VerbArgs<{ userId: string; workspaceId: string }>): Promise<WorkspaceAccess> {
  const row = await ctx.store.db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['memberships.role', 'workspaces.name', 'workspaces.locale'])
    .where('memberships.user_id', '=', input.userId)
    .where('memberships.workspace_id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('workspace_not_found', 'No such workspace');
  return {
    workspaceId: input.workspaceId,
    workspaceName: row.name,
    role: row.role as Role,
    ...(row.locale ? { locale: row.locale } : {}),
  };
}

/** Owner actions: a member gets 403 and nothing changes. */
export function requireOwner(access: WorkspaceAccess): void {
  if (access.role !== 'owner') {
    throw new AppError('owner_only', `Only an owner of ${access.workspaceName} can do this; ask an owner`);
  }
}

/** The workspaces a person belongs to, by name: the switcher, and where `/` leads. */
export async function workspacesOf(ctx: DomainContext, userId: string): Promise<WorkspaceAccess[]> {
  const rows = await ctx.store.db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['memberships.workspace_id', 'memberships.role', 'workspaces.name'])
    .where('memberships.user_id', '=', userId)
    .orderBy('workspaces.name')
    .orderBy('workspaces.id')
    .execute();
  return rows.map((r) => ({ workspaceId: r.workspace_id, workspaceName: r.name, role: r.role as Role }));
}
