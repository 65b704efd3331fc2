import type { WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { loadStages, type Stage } from './stage.js';

export interface StageWithCount extends Stage {
  leads: number;
}

/** A pipeline's stages in order, with how many leads each holds. */
export async function listStages({ ctx, input }: WorkspaceVerbArgs<{ pipelineId: string }>): Promise<StageWithCount[]> {
  const pipeline = await getPipeline({ ctx, input });
  const stages = await loadStages(ctx.store.db, pipeline.id);
  const counts = await ctx.store.db
    .selectFrom('leads')
    .select(['stage', (eb) => eb.fn.countAll<number>().as('n')])
    .where('pipeline_id', '=', pipeline.id)
    .groupBy('stage')
    .execute();
  const byKey = new Map(counts.map((c) => [c.stage, Number(c.n)]));
  return stages.map((s) => ({ ...s, leads: byKey.get(s.key) ?? 0 }));
}
