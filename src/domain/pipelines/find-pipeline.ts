import { sql } from 'kysely';
import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';
import type { Pipeline } from './create-pipeline.js';

/**
 * A pipeline of the workspace, by id or by name, case-insensitively (unique per workspace, migration 0002), as a
 * person gives it: a CLI argument or a pipeline in a page's URL.
 */
export async function findPipeline({ ctx, input }: WorkspaceVerbArgs<{ ref: string }>): Promise<Pipeline> {
  const row = await ctx.store.db
    .selectFrom('pipelines')
    .selectAll()
    .where('workspace_id', '=', ctx.workspaceId)
    .where((eb) =>
      eb.or([eb('id', '=', input.ref), eb(sql<string>`lower(name)`, '=', sql<string>`lower(${input.ref})`)]),
    )
    .orderBy(sql`case when id = ${input.ref} then 0 else 1 end`)
    .limit(1)
    .executeTakeFirst();
  if (!row) throw pipelineNotFound(ctx.workspaceId, input.ref);
  return { id: row.id, workspaceId: row.workspace_id, name: row.name };
}

/** A pipeline by its id; another workspace's pipeline is "not found". */
export async function getPipeline({ ctx, input }: WorkspaceVerbArgs<{ pipelineId: string }>): Promise<Pipeline> {
  const row = await ctx.store.db
    .selectFrom('pipelines')
    .selectAll()
    .where('workspace_id', '=', ctx.workspaceId)
    .where('id', '=', input.pipelineId)
    .executeTakeFirst();
  if (!row) throw pipelineNotFound(ctx.workspaceId, input.pipelineId);
  return { id: row.id, workspaceId: row.workspace_id, name: row.name };
}

function pipelineNotFound(workspaceId: string, ref: string): AppError {
  return new AppError(
    'pipeline_not_found',
    `No pipeline "${ref}" in workspace ${workspaceId}; \`leadscan pipeline list --workspace ${workspaceId}\` shows ` +
      `them`,
  );
}
