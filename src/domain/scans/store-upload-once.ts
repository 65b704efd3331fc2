import type { VerbArgs } from '../context.js';
import type { HandedOverBytes } from '../../storage/hot-writes/scan.js';

/** How the HTTP layer gives an upload's body to this verb without knowing storage: its word to read it no more. */
export { handOver, type HandedOverBytes } from '../../storage/hot-writes/scan.js';
import { storeUpload, type StoreUploadResult } from './store-upload.js';
import { requestHash, workspaceScope } from '../idempotency/idempotency-key.js';
import { runIdempotent, type IdempotentOutcome, type ScanKeyResult } from '../idempotency/run-idempotent.js';

/**
 * A scan upload under an optional Idempotency-Key, scoped to the workspace: a repeat replays the first result
 * (the same count) and stores no second scan. The key is recorded on the scan and marked done inside the
 * upload's own transaction.
 */
export async function storeUploadOnce({
  ctx,
  input,
}: VerbArgs<{
  workspaceId: string;
  /** Read here (hashed) and by storeUpload, which gives it to the hot writer. */
  body: HandedOverBytes<Buffer>;
  userAgent: string | undefined;
  idempotencyKey: string | null;
  /** The request's Content-Type: part of what makes two keyed uploads "the same request". */
  contentType: string | undefined;
}>): Promise<IdempotentOutcome<ScanKeyResult>> {
  const { workspaceId, body, userAgent, idempotencyKey } = input;
  return runIdempotent<ScanKeyResult>({
    ctx,
    input: {
      scope: workspaceScope(workspaceId),
      key: idempotencyKey,
      // Hashing a body of up to 32 MiB costs the event loop milliseconds: only a keyed upload needs it.
      requestHash: idempotencyKey === null ? '' : requestHash({ contentType: input.contentType, body }),
      kind: 'scan',
      run: (slot): Promise<StoreUploadResult> =>
        storeUpload({ ctx, input: { workspaceId, body, userAgent, idempotency: slot } }),
    },
  });
}
