import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import type { DeletedView } from '../workspaces/delete-workspace.js';
import {
  countLeads,
  refuseUnlessEmpty,
  removeLeads,
  removeSources,
  removeStages,
} from '../workspaces/remove-contents.js';
import { getPipeline } from './find-pipeline.js';

/** Deletes a pipeline with its lead sources and, with `force`, their leads (docs/cli.md), in one transaction. */
export async function deletePipeline({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; force: boolean }>): Promise<DeletedView> {
  const pipeline = await getPipeline({ ctx, input });
  const deleted = await ctx.store.writer.write(async (trx) => {
    const sourceIds = (
      await trx.selectFrom('lead_sources').select('id').where('pipeline_id', '=', pipeline.id).execute()
    ).map((r) => r.id);
    const leads = await countLeads(trx, { sourceIds, pipelineId: pipeline.id });
    refuseUnlessEmpty({ what: `Pipeline "${pipeline.name}"`, leads, scans: 0, force: input.force });
    // The pipeline's leads, whichever source brought them, then its sources with what they hold.
    await removeLeads(trx, 'pipeline_id', [pipeline.id]);
    const removed = await removeSources(trx, sourceIds);
    await removeStages(trx, [pipeline.id]);
    await trx.deleteFrom('pipelines').where('id', '=', pipeline.id).execute();
    await recordAudit(trx, ctx, {
      action: 'pipeline.deleted',
      workspaceId: pipeline.workspaceId,
      targetIds: [pipeline.id],
      details: { ...removed, leads },
    });
    return { ...removed, leads, pipelines: 1 };
  });
  return { id: pipeline.id, name: pipeline.name, deleted };
}
