import type { VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import type { Pipeline } from './create-pipeline.js';

/** The pipelines of a workspace, oldest first. */
export async function listPipelines({
  ctx,
  input,
}: VerbArgs<{ workspace: string }>): Promise<Array<Pipeline & { createdAt: string }>> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const rows = await ctx.store.db
    .selectFrom('pipelines')
    .selectAll()
    .where('workspace_id', '=', workspace.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at }));
}
