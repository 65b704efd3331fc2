import type { VerbArgs } from '../context.js';
import { storeUpload } from '../scans/store-upload.js';
import { workspaceScope } from './idempotency-key.js';
import { runIdempotent, type IdempotentOutcome } from './run-idempotent.js';

/**
 * A scan upload under an optional Idempotency-Key, scoped to the workspace: a repeat replays the first answer
 * (the same count) and stores no second scan. The key is recorded on the scan and marked done inside the
 * upload's own transaction.
 */
export async function storeUploadOnce({
  ctx,
  input,
}: VerbArgs<{
  workspaceId: string;
  body: Buffer;
  userAgent: string | undefined;
  idempotencyKey: string | null;
  requestHash: string;
}>): Promise<IdempotentOutcome> {
  const { workspaceId, body, userAgent, idempotencyKey } = input;
  return runIdempotent({
    ctx,
    input: {
      scope: workspaceScope(workspaceId),
      key: idempotencyKey,
      requestHash: input.requestHash,
      run: async (record) => {
        const result = await storeUpload({
          ctx,
          input: {
            workspaceId,
            body,
            userAgent,
            afterStore: async (trx, stored) => {
              if (idempotencyKey !== null && stored.scanId !== null) {
                await trx.updateTable('scans').set({ idempotency_key: idempotencyKey }).where('id', '=', stored.scanId).execute();
              }
              await record(trx, { status: 200, body: { ok: true, count: stored.count } });
            },
          },
        });
        return { status: 200, body: { ok: true, count: result.count } };
      },
    },
  });
}
