import type { VerbArgs } from '../context.js';
import { BOT_CHECK_TOKEN_FIELD } from '../intake/lead-fields.js';
import { submitLead, type SubmitLeadInput } from '../intake/submit-lead.js';
import { requestHash, sourceScope } from './idempotency-key.js';
import { runIdempotent, type IdempotentOutcome } from './run-idempotent.js';

/**
 * What makes two lead submissions "the same payload": the fields as read, not the bytes (a browser's multipart
 * boundary differs between identical posts), and without the bot-check token, which is single-use: a retry after
 * a lost answer carries a fresh token from the re-armed widget and is still the same submission.
 */
export function leadPayloadHash(body: Record<string, unknown>): string {
  const { [BOT_CHECK_TOKEN_FIELD]: _token, ...fields } = body;
  return requestHash({ contentType: undefined, body: JSON.stringify(fields) });
}

/**
 * An intake submission under an optional Idempotency-Key, scoped to the lead source: a repeat replays the first
 * answer (the same lead id, or the same fake id for a honeypot catch) and stores nothing. The key is recorded on
 * the lead and marked done inside the lead's own transaction.
 */
export async function submitLeadOnce({
  ctx,
  input,
}: VerbArgs<Omit<SubmitLeadInput, 'afterStore'> & { idempotencyKey: string | null }>): Promise<IdempotentOutcome> {
  const { source, body, meta, idempotencyKey, log } = input;
  return runIdempotent({
    ctx,
    input: {
      scope: sourceScope(source.id),
      key: idempotencyKey,
      requestHash: leadPayloadHash(body),
      run: async (record) => {
        const result = await submitLead({
          ctx,
          input: {
            source,
            body,
            meta,
            log,
            afterStore: async (trx, stored) => {
              if (idempotencyKey !== null && !stored.quarantined) {
                await trx.updateTable('leads').set({ idempotency_key: idempotencyKey }).where('id', '=', stored.id).execute();
              }
              if (idempotencyKey !== null && stored.quarantineId) {
                // So erasing the person also erases this key's record (CONTRACT §14).
                await trx.updateTable('quarantine').set({ idempotency_key: idempotencyKey }).where('id', '=', stored.quarantineId).execute();
              }
              await record(trx, { status: 200, body: { ok: true, id: stored.id } });
            },
          },
        });
        return { status: 200, body: { ok: true, id: result.id } };
      },
    },
  });
}
