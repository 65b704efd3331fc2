import type { WorkspaceVerbArgs } from '../context.js';

/**
 * The lead a quarantined submission of the workspace was restored as, if any (a double-clicked Restore lands there).
 */
export async function restoredLeadOf({ ctx, input }: WorkspaceVerbArgs<{ id: string }>): Promise<string | null> {
  const row = await ctx.store.db
    .selectFrom('quarantine')
    .select('restored_lead_id')
    .where('id', '=', input.id)
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  return row?.restored_lead_id ?? null;
}
