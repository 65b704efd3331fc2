import { recordAuditAlone } from '../audit/record-audit.js';
import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';

/**
 * The Scans screen's "show / copy": the live key, decrypted. `audit` says how a person sees it (shown on the page or
 * the CLI, copied through the Copy button), recorded in the audit log; the page's masked rendering passes none.
 */
export async function showUploadKey({
  ctx,
  input,
}: WorkspaceVerbArgs<{ audit?: 'key.shown' | 'key.copied' }>): Promise<{ uploadKey: string }> {
  const row = await ctx.store.db
    .selectFrom('upload_keys')
    .select('key_enc')
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('internal_error', `Workspace ${ctx.workspaceId} has no upload key`);
  if (input.audit) await recordAuditAlone(ctx, { action: input.audit, workspaceId: ctx.workspaceId });
  return { uploadKey: ctx.secrets.open(row.key_enc) };
}
