import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { nowIso, type VerbArgs } from '../context.js';
import { hashUploadKey, mintUploadKey } from '../keys/secret-box.js';

export interface CreatedWorkspace {
  id: string;
  name: string;
  uploadKey: string;
}

export function checkName(kind: string, name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || [...trimmed].length > 120) {
    throw new AppError('invalid_request', `A ${kind} name must be 1 to 120 characters`);
  }
  return trimmed;
}

/** A workspace is born with its one upload key (CONTRACT §5), in the same transaction. */
export async function createWorkspace({ ctx, input }: VerbArgs<{ name: string }>): Promise<CreatedWorkspace> {
  const name = checkName('workspace', input.name);
  const id = newId('ws');
  const uploadKey = mintUploadKey();
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    await trx.insertInto('workspaces').values({ id, name, created_at: now }).execute();
    await trx
      .insertInto('upload_keys')
      .values({
        workspace_id: id,
        key_hash: hashUploadKey(uploadKey),
        key_enc: ctx.secrets.seal(uploadKey),
        created_at: now,
        last_connected_at: null,
        last_used_at: null,
      })
      .execute();
  });
  return { id, name, uploadKey };
}
