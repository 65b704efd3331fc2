import type { VerbArgs } from '../context.js';
import { submitLead, type IntakeMeta } from '../intake/submit-lead.js';
import type { BotCheckLog } from '../intake/verify-bot-check.js';
import type { LeadSource } from '../sources/source.js';
import { sourceScope } from './idempotency-key.js';
import { runIdempotent, type IdempotentOutcome } from './run-idempotent.js';

/**
 * An intake submission under an optional Idempotency-Key, scoped to the lead source: a repeat replays the first
 * answer (the same lead id, or the same fake id for a honeypot catch) and stores nothing. The key is recorded on
 * the lead and marked done inside the lead's own transaction.
 */
export async function submitLeadOnce({
  ctx,
  input,
}: VerbArgs<{
  source: LeadSource;
  body: Record<string, unknown>;
  meta: IntakeMeta;
  idempotencyKey: string | null;
  requestHash: string;
  log?: BotCheckLog;
}>): Promise<IdempotentOutcome> {
  const { source, body, meta, idempotencyKey, log } = input;
  return runIdempotent({
    ctx,
    input: {
      scope: sourceScope(source.id),
      key: idempotencyKey,
      requestHash: input.requestHash,
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
              await record(trx, { status: 200, body: { ok: true, id: stored.id } });
            },
          },
        });
        return { status: 200, body: { ok: true, id: result.id } };
      },
    },
  });
}
