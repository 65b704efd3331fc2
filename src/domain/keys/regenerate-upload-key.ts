import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { noWorkspaceWithId } from '../workspaces/find-workspace.js';
import { hashUploadKey, mintUploadKey } from '../secret-box.js';
import { forgetUploadKeyTouches } from './touch-upload-key.js';

/**
 * Replace the workspace's key. One UPDATE of the single key row: the moment it commits, lookups find only the
 * new hash, so the old key is refused on every instance at once (no cache sits in front of the lookup).
 */
export async function regenerateUploadKey({
  ctx,
}: WorkspaceVerbArgs<Record<string, never>>): Promise<{ uploadKey: string }> {
  const uploadKey = mintUploadKey();
  const replaced = await ctx.store.writer.write(async (trx) => {
    const result = await trx
      .updateTable('upload_keys')
      .set({
        key_hash: hashUploadKey(uploadKey),
        key_enc: ctx.secrets.seal(uploadKey),
        created_at: nowIso(ctx),
        last_connected_at: null,
        last_used_at: null,
      })
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1)
      await recordAudit(trx, ctx, { action: 'key.regenerated', workspaceId: ctx.workspaceId });
    return result;
  });
  // Every workspace has its key row from creation on, so no row means no such workspace.
  if (Number(replaced.numUpdatedRows) === 0) throw noWorkspaceWithId(ctx.workspaceId);
  forgetUploadKeyTouches(ctx.store, ctx.workspaceId);
  return { uploadKey };
}
