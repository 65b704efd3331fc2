import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import { hashUploadKey, MIN_PRESENTED_KEY_LENGTH, sameHash } from '../secret-box.js';

/**
 * The workspace an `x-scan-key` belongs to (docs/api.md). Too-short keys are refused before any lookup; the
 * lookup is by SHA-256, and the stored hash is compared again in constant time.
 */
export async function authenticateUploadKey({
  ctx,
  input,
}: VerbArgs<{ presented: string | undefined }>): Promise<{ workspaceId: string }> {
  const presented = input.presented?.trim();
  if (!presented) {
    throw new AppError('missing_scan_key', 'Send the workspace upload key in the x-scan-key header');
  }
  const refused = new AppError(
    'invalid_scan_key',
    `The x-scan-key is not a valid upload key; sign in at ${ctx.config.publicBaseUrl}/login and copy the current ` +
      `key from the Scans screen (Show or Copy)`,
  );
  if (presented.length < MIN_PRESENTED_KEY_LENGTH) throw refused;
  const hash = hashUploadKey(presented);
  const row = await ctx.store.db
    .selectFrom('upload_keys')
    .select(['workspace_id', 'key_hash'])
    .where('key_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !sameHash(row.key_hash, hash)) throw refused;
  return { workspaceId: row.workspace_id };
}
