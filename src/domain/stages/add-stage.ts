import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { checkStageName, loadStages, stageKeyFor, type Stage } from './stage.js';

/** Adds a stage at the end of a pipeline (owner). */
export async function addStage({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; name: string }>): Promise<Stage> {
  const pipeline = await getPipeline({ ctx, input });
  return ctx.store.writer.write(async (trx) => {
    const stages = await loadStages(trx, pipeline.id);
    const name = checkStageName(input.name, stages);
    const stage = { key: stageKeyFor(name, stages), name, position: (stages.at(-1)?.position ?? -1) + 1 };
    await trx
      .insertInto('stages')
      .values({ pipeline_id: pipeline.id, ...stage, created_at: nowIso(ctx) })
      .execute();
    await recordAudit(trx, ctx, { action: 'stage.added', workspaceId: pipeline.workspaceId, targetIds: [pipeline.id] });
    return stage;
  });
}
