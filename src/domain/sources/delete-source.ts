import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import type { DeletedView } from '../workspaces/delete-workspace.js';
import { countLeads, refuseUnlessEmpty, removeSources } from '../workspaces/remove-contents.js';
import { getSource } from './find-source.js';

/**
 * Deletes a lead source: its intake link and hosted form answer 404 from then on, like a deactivated one. With
 * leads it needs `force` (they go with it); deactivating keeps them and is usually what is wanted.
 */
export async function deleteSource({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; force: boolean }>): Promise<DeletedView> {
  const source = await getSource({ ctx, input });
  const deleted = await ctx.store.writer.write(async (trx) => {
    const leads = await countLeads(trx, { sourceIds: [source.id] });
    refuseUnlessEmpty({
      what: `Lead source "${source.name}"`,
      hint: ', or deactivate the source to keep them',
      leads,
      scans: 0,
      force: input.force,
    });
    const removed = await removeSources(trx, [source.id]);
    await recordAudit(trx, ctx, {
      action: 'source.deleted',
      workspaceId: source.workspaceId,
      targetIds: [source.id],
      details: { leads: removed.leads, quarantine: removed.quarantine },
    });
    return removed;
  });
  return { id: source.id, name: source.name, deleted };
}
