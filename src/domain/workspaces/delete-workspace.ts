import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { getWorkspace } from './find-workspace.js';
import {
  countLeads,
  countScans,
  refuseUnlessEmpty,
  removeScans,
  removeSources,
  removeStages,
  type RemovedCounts,
} from './remove-contents.js';
import { forgetWorkspaceNotifications } from '../notifications/forget-notifications.js';

export interface DeletedView {
  id: string;
  name: string;
  deleted: RemovedCounts;
}

/**
 * Deletes a workspace with its pipelines, lead sources, upload key and, with `force`, its leads and scans
 * (docs/cli.md), in one transaction: either all of it is gone or nothing is.
 */
export async function deleteWorkspace({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; force: boolean }>): Promise<DeletedView> {
  const workspace = await getWorkspace({ ctx, input });
  const deleted = await ctx.store.writer.write(async (trx) => {
    const sourceIds = (
      await trx.selectFrom('lead_sources').select('id').where('workspace_id', '=', workspace.id).execute()
    ).map((r) => r.id);
    refuseUnlessEmpty({
      what: `Workspace "${workspace.name}"`,
      leads: await countLeads(trx, { sourceIds }),
      scans: await countScans(trx, workspace.id),
      force: input.force,
    });
    const removed = await removeSources(trx, sourceIds);
    removed.scans = await removeScans(trx, workspace.id);
    const pipelineIds = (
      await trx.selectFrom('pipelines').select('id').where('workspace_id', '=', workspace.id).execute()
    ).map((r) => r.id);
    await removeStages(trx, pipelineIds);
    await trx.deleteFrom('memberships').where('workspace_id', '=', workspace.id).execute();
    await trx.deleteFrom('invitations').where('workspace_id', '=', workspace.id).execute();
    await forgetWorkspaceNotifications(trx, workspace.id);
    const pipelines = await trx.deleteFrom('pipelines').where('workspace_id', '=', workspace.id).executeTakeFirst();
    removed.pipelines = Number(pipelines.numDeletedRows);
    await trx.deleteFrom('upload_keys').where('workspace_id', '=', workspace.id).execute();
    await trx.deleteFrom('workspaces').where('id', '=', workspace.id).execute();
    await recordAudit(trx, ctx, {
      action: 'workspace.deleted',
      workspaceId: workspace.id,
      targetIds: [workspace.id],
      details: { ...removed },
    });
    return removed;
  });
  return { id: workspace.id, name: workspace.name, deleted };
}
