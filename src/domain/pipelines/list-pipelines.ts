import type { WorkspaceVerbArgs } from '../context.js';
import type { Pipeline } from './create-pipeline.js';

/** The pipelines of a workspace, oldest first. */
export async function listPipelines({
  ctx,
}: WorkspaceVerbArgs<Record<string, never>>): Promise<Array<Pipeline & { createdAt: string }>> {
  const rows = await ctx.store.db
    .selectFrom('pipelines')
    .selectAll()
    .where('workspace_id', '=', ctx.workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at }));
}
