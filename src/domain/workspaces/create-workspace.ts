import { recordAudit } from '../audit/record-audit.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { newId } from '../ids.js';
import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { hashUploadKey, mintUploadKey } from '../secret-box.js';
import { assertNameFree, checkName } from '../unique-name.js';

export interface CreatedWorkspace {
  id: string;
  name: string;
  uploadKey: string;
}

/** A workspace is born with its one upload key (docs/api.md), in the same transaction. */
export async function createWorkspace({ ctx, input }: VerbArgs<{ name: string }>): Promise<CreatedWorkspace> {
  const name = checkName('workspace', input.name);
  const id = newId('ws');
  const uploadKey = mintUploadKey();
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'workspaces', { name });
    await insertWorkspace(trx, ctx, { id, name, uploadKey, now });
    await recordAudit(trx, ctx, { action: 'workspace.created', workspaceId: id, targetIds: [id] });
  });
  return { id, name, uploadKey };
}

/** The workspace row and its one upload key (hash for lookup, sealed copy for showing), inside `trx`. */
export async function insertWorkspace(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  row: { id: string; name: string; uploadKey: string; now: string },
): Promise<void> {
  await trx.insertInto('workspaces').values({ id: row.id, name: row.name, created_at: row.now }).execute();
  await trx
    .insertInto('upload_keys')
    .values({
      workspace_id: row.id,
      key_hash: hashUploadKey(row.uploadKey),
      key_enc: ctx.secrets.seal(row.uploadKey),
      created_at: row.now,
      last_connected_at: null,
      last_used_at: null,
    })
    .execute();
}
