import type { WorkspaceVerbArgs } from '../context.js';
import { loadStages, type Stage } from '../stages/stage.js';

export interface SourceOption {
  id: string;
  name: string;
  pipelineId: string;
}

/** What the inbox's filter menus offer: the pipeline's stages and the workspace's lead sources. */
export async function inboxOptions({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string }>): Promise<{ stages: Stage[]; sources: SourceOption[] }> {
  const [stages, sources] = await Promise.all([
    loadStages(ctx.store.db, input.pipelineId),
    ctx.store.db
      .selectFrom('lead_sources')
      .select(['id', 'name', 'pipeline_id'])
      .where('workspace_id', '=', ctx.workspaceId)
      .orderBy('name')
      .orderBy('id')
      .execute(),
  ]);
  return { stages, sources: sources.map((s) => ({ id: s.id, name: s.name, pipelineId: s.pipeline_id })) };
}
