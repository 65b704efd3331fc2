import type { WorkspaceVerbArgs } from '../context.js';

/** Scans nobody in the workspace has opened yet: the badge on the Scans item of the top bar. */
export async function countNewScans({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<number> {
  const row = await ctx.store.db
    .selectFrom('scan_unread')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
