import type { VerbArgs } from '../context.js';

/** Scans nobody in the workspace has opened yet: the badge on the Scans item of the top bar. */
export async function countNewScans({ ctx, input }: VerbArgs<{ workspaceId: string }>): Promise<number> {
  const row = await ctx.store.db
    .selectFrom('scan_unread')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', input.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
