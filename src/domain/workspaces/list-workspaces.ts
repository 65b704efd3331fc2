import type { VerbArgs } from '../context.js';
import type { Workspace } from './find-workspace.js';

/** Every workspace, oldest first (ids for the commands that need one). */
export async function listWorkspaces({ ctx }: VerbArgs<Record<string, never>>): Promise<Workspace[]> {
  const rows = await ctx.store.db.selectFrom('workspaces').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at }));
}
