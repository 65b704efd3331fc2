import type { VerbArgs } from '../context.js';
import { BOT_CHECK_TOKEN_FIELD } from '../lead-fields.js';
import { submitLead, type SubmitLeadInput, type SubmitLeadResult } from './submit-lead.js';
import { requestHash, sourceScope } from '../idempotency/idempotency-key.js';
import { stringifyIteratively } from '../idempotency/stringify-iteratively.js';
import { runIdempotent, type IdempotentOutcome, type LeadKeyResult } from '../idempotency/run-idempotent.js';

/**
 * What makes two lead submissions "the same payload": the fields as read, not the bytes (a browser's multipart
 * boundary differs between identical posts), and without the bot-check token, which is single-use: a retry after
 * a lost answer carries a fresh token from the re-armed widget and is still the same submission.
 */
export function leadPayloadHash(body: Record<string, unknown>): string {
  const { [BOT_CHECK_TOKEN_FIELD]: _token, ...fields } = body;
  return requestHash({ contentType: undefined, body: stringifyIteratively(fields) });
}

/**
 * An intake submission under an optional Idempotency-Key, scoped to the lead source: a repeat replays the first
 * result (the same lead id, or the same fake id for a honeypot catch) and stores nothing. The key is recorded on
 * the lead and marked done inside the lead's own transaction.
 */
export async function submitLeadOnce({
  ctx,
  input,
}: VerbArgs<Omit<SubmitLeadInput, 'idempotency'> & { idempotencyKey: string | null }>): Promise<
  IdempotentOutcome<LeadKeyResult>
> {
  const { source, body, meta, idempotencyKey, log } = input;
  return runIdempotent<LeadKeyResult>({
    ctx,
    input: {
      scope: sourceScope(source.id),
      key: idempotencyKey,
      // Only a keyed request is compared with an earlier one.
      requestHash: idempotencyKey === null ? '' : leadPayloadHash(body),
      kind: 'lead',
      // A first submission's result is the verb's own (a SubmitLeadResult), a replay's the stored LeadKeyResult.
      run: ({ ref }): Promise<SubmitLeadResult> =>
        submitLead({ ctx, input: { source, body, meta, log, idempotency: ref } }),
    },
  });
}
