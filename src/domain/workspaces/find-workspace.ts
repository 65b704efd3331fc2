import { sql } from 'kysely';
import { AppError } from '../errors.js';
import type { DomainContext } from '../context.js';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

/**
 * A workspace by id, or by name, as a person types it (the CLI's `--workspace`), case-insensitively (names are unique,
 * migration 0002).
 */
export async function findWorkspace({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { ref: string };
}): Promise<Workspace> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', input.ref), eb(sql<string>`lower(name)`, '=', sql<string>`lower(${input.ref})`)]),
    )
    .orderBy(sql`case when id = ${input.ref} then 0 else 1 end`)
    .limit(1)
    .executeTakeFirst();
  if (!row) {
    throw new AppError(
      'workspace_not_found',
      `No workspace has the id or name "${input.ref}"; \`leadscan workspace list\` shows them`,
    );
  }
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

/** A workspace by its id, for the verbs that need its row (its name); no such workspace is "not found". */
export async function getWorkspace({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { workspaceId: string };
}): Promise<Workspace> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw noWorkspaceWithId(input.workspaceId);
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export function noWorkspaceWithId(workspaceId: string): AppError {
  return new AppError(
    'workspace_not_found',
    `No workspace has the id "${workspaceId}"; \`leadscan workspace list\` shows them`,
  );
}
