import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';

/** The Scans screen's "show / copy": the live key, decrypted. */
export async function showUploadKey({ ctx, input }: VerbArgs<{ workspaceId: string }>): Promise<{ uploadKey: string }> {
  const row = await ctx.store.db
    .selectFrom('upload_keys')
    .select('key_enc')
    .where('workspace_id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('internal_error', `Workspace ${input.workspaceId} has no upload key`);
  return { uploadKey: ctx.secrets.open(row.key_enc) };
}
