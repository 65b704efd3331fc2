import type { WorkspaceVerbArgs } from '../context.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The top bar's Quarantine count (docs/admin-app.md): submissions caught in the last 7 days and not restored.
 * Leads a person marked as spam are not counted: nobody needs telling about those. One range of the
 * (workspace_id, received_at) index.
 */
export async function countRecentCatches({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<number> {
  const row = await ctx.store.db
    .selectFrom('quarantine')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', ctx.workspaceId)
    .where('received_at', '>=', new Date(ctx.clock.now().getTime() - WEEK_MS).toISOString())
    .where('restored_lead_id', 'is', null)
    .where('reason', '!=', 'marked_spam')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
