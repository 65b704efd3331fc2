import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';

/** The Scans screen's "show / copy": the live key, decrypted. */
export async function showUploadKey({ ctx, input }: VerbArgs<{ workspace: string }>): Promise<{ uploadKey: string }> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const row = await ctx.store.db
    .selectFrom('upload_keys')
    .select('key_enc')
    .where('workspace_id', '=', workspace.id)
    .executeTakeFirst();
  if (!row) throw new AppError('internal_error', `Workspace ${workspace.id} has no upload key`);
  return { uploadKey: ctx.secrets.open(row.key_enc) };
}
