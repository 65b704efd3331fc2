import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { checkStageName, loadStages, pickStage, type Stage } from './stage.js';

/** Renames a stage (owner). Its key, and so its leads and their history, stay as they are. */
export async function renameStage({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; stage: string; name: string }>): Promise<Stage> {
  const pipeline = await getPipeline({ ctx, input });
  return ctx.store.writer.write(async (trx) => {
    const stages = await loadStages(trx, pipeline.id);
    const stage = pickStage(stages, input.stage);
    const name = checkStageName(
      input.name,
      stages.filter((s) => s.key !== stage.key),
    );
    await trx
      .updateTable('stages')
      .set({ name })
      .where('pipeline_id', '=', pipeline.id)
      .where('key', '=', stage.key)
      .execute();
    await recordAudit(trx, ctx, {
      action: 'stage.renamed',
      workspaceId: pipeline.workspaceId,
      targetIds: [pipeline.id],
    });
    return { ...stage, name };
  });
}
