import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';

/** What the Scans screen says about the key besides the key itself: when it was made and last connected. */
export async function uploadKeyStatus({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<{
  createdAt: string;
  lastConnectedAt: string | null;
  lastUsedAt: string | null;
}> {
  const row = await ctx.store.db
    .selectFrom('upload_keys')
    .select(['created_at', 'last_connected_at', 'last_used_at'])
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('internal_error', `Workspace ${ctx.workspaceId} has no upload key`);
  return { createdAt: row.created_at, lastConnectedAt: row.last_connected_at, lastUsedAt: row.last_used_at };
}
