import type { WorkspaceVerbArgs } from '../context.js';

/** The workspace's lead source names by id (the Quarantine screen names each catch's source). */
export async function sourceNames({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<Map<string, string>> {
  const rows = await ctx.store.db
    .selectFrom('lead_sources')
    .select(['id', 'name'])
    .where('workspace_id', '=', ctx.workspaceId)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
