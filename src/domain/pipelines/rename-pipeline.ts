import type { VerbArgs } from '../context.js';
import { assertNameFree } from '../unique-name.js';
import { checkName } from '../workspaces/create-workspace.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import type { Pipeline } from './create-pipeline.js';
import { findPipeline } from './find-pipeline.js';

export async function renamePipeline({
  ctx,
  input,
}: VerbArgs<{ workspace: string; pipeline: string; name: string }>): Promise<Pipeline> {
  const name = checkName('pipeline', input.name);
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const pipeline = await findPipeline({ ctx, input: { workspaceId: workspace.id, ref: input.pipeline } });
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'pipelines', { name, workspaceId: workspace.id, exceptId: pipeline.id });
    await trx.updateTable('pipelines').set({ name }).where('id', '=', pipeline.id).execute();
  });
  return { ...pipeline, name };
}
