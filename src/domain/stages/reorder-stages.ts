import { recordAudit } from '../audit/record-audit.js';
import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { loadStages, pickStage, type Stage } from './stage.js';

/**
 * Puts a pipeline's stages in a new order (owner): either the whole order, or one stage moved one place
 * (`direction`), which is what the page's Up/Down buttons send. The first stage is where new leads arrive.
 */
export async function reorderStages({
  ctx,
  input,
}: WorkspaceVerbArgs<
  { pipelineId: string } & ({ order: string[] } | { stage: string; direction: 'up' | 'down' })
>): Promise<Stage[]> {
  const pipeline = await getPipeline({ ctx, input });
  return ctx.store.writer.write(async (trx) => {
    const stages = await loadStages(trx, pipeline.id);
    let order: Stage[];
    if ('order' in input) {
      order = input.order.map((ref) => pickStage(stages, ref));
      if (new Set(order.map((s) => s.key)).size !== stages.length || order.length !== stages.length) {
        throw new AppError('invalid_request', `Name every stage once: ${stages.map((s) => s.name).join(', ')}`);
      }
    } else {
      const stage = pickStage(stages, input.stage);
      const from = stages.indexOf(stage);
      const to = Math.min(stages.length - 1, Math.max(0, from + (input.direction === 'up' ? -1 : 1)));
      order = [...stages];
      order.splice(from, 1);
      order.splice(to, 0, stage);
    }
    for (const [position, stage] of order.entries()) {
      if (stage.position === position) continue;
      await trx
        .updateTable('stages')
        .set({ position })
        .where('pipeline_id', '=', pipeline.id)
        .where('key', '=', stage.key)
        .execute();
    }
    await recordAudit(trx, ctx, {
      action: 'stage.reordered',
      workspaceId: pipeline.workspaceId,
      targetIds: [pipeline.id],
    });
    return order.map((s, position) => ({ ...s, position }));
  });
}
