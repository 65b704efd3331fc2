import { AppError } from '../errors.js';
import type { DomainContext } from '../context.js';
import type { Pipeline } from './create-pipeline.js';

/** A pipeline of the workspace, by id or by a name unique in the workspace. */
export async function findPipeline({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { workspaceId: string; ref: string };
}): Promise<Pipeline> {
  const rows = await ctx.store.db
    .selectFrom('pipelines')
    .selectAll()
    .where('workspace_id', '=', input.workspaceId)
    .where((eb) => eb.or([eb('id', '=', input.ref), eb('name', '=', input.ref)]))
    .limit(2)
    .execute();
  const exact = rows.find((r) => r.id === input.ref);
  const row = exact ?? (rows.length === 1 ? rows[0] : undefined);
  if (!row) {
    throw new AppError(
      'pipeline_not_found',
      rows.length > 1
        ? `Several pipelines are named "${input.ref}"; use the pipeline id`
        : `No pipeline "${input.ref}" in workspace ${input.workspaceId}`,
    );
  }
  return { id: row.id, workspaceId: row.workspace_id, name: row.name };
}
