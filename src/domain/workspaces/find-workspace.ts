import { AppError } from '../errors.js';
import type { DomainContext } from '../context.js';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

/** A workspace by id, or by name when exactly one workspace has it (so `--workspace Default` works). */
export async function findWorkspace({ ctx, input }: { ctx: DomainContext; input: { ref: string } }): Promise<Workspace> {
  const { db } = ctx.store;
  const byId = await db.selectFrom('workspaces').selectAll().where('id', '=', input.ref).executeTakeFirst();
  const rows = byId
    ? [byId]
    : await db.selectFrom('workspaces').selectAll().where('name', '=', input.ref).limit(2).execute();
  if (rows.length !== 1) {
    throw new AppError(
      'workspace_not_found',
      rows.length === 0
        ? `No workspace has the id or name "${input.ref}"`
        : `Several workspaces are named "${input.ref}"; use the workspace id`,
    );
  }
  const row = rows[0]!;
  return { id: row.id, name: row.name, createdAt: row.created_at };
}
