import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { assertNameFree, checkName } from '../unique-name.js';
import type { Pipeline } from './create-pipeline.js';
import { getPipeline } from './find-pipeline.js';

export async function renamePipeline({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; name: string }>): Promise<Pipeline> {
  const name = checkName('pipeline', input.name);
  const pipeline = await getPipeline({ ctx, input });
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'pipelines', { name, workspaceId: pipeline.workspaceId, exceptId: pipeline.id });
    await trx.updateTable('pipelines').set({ name }).where('id', '=', pipeline.id).execute();
    await recordAudit(trx, ctx, {
      action: 'pipeline.renamed',
      workspaceId: pipeline.workspaceId,
      targetIds: [pipeline.id],
    });
  });
  return { ...pipeline, name };
}
