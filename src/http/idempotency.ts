import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { parseIdempotencyKey } from '../domain/idempotency/idempotency-key.js';
import type { IdempotentOutcome, KeyResult } from '../domain/idempotency/run-idempotent.js';

/** The request's Idempotency-Key, checked (400 invalid_idempotency_key), or null when it sent none. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  return parseIdempotencyKey(request.headers['idempotency-key']);
}

/**
 * The answer to a (possibly replayed) result, the same for both: a lead is 200 `{ ok: true, id }` (docs/api.md), a
 * scan upload 200 `{ ok: true, count }` (docs/api.md). A replay says so, as Stripe's `Idempotent-Replayed` does.
 */
export function sendIdempotent(reply: FastifyReply, outcome: IdempotentOutcome<KeyResult>) {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  const { result } = outcome;
  return reply
    .code(200)
    .send(result.kind === 'lead' ? { ok: true, id: result.leadId } : { ok: true, count: result.count });
}

/** The header as documented in /openapi.json (the check itself is idempotencyKeyOf). */
export const IdempotencyKeyHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x20-\\x7E]+$',
        // No `examples` here: the API reference's "Try it out" would fill a fixed key into every try, and the
        // second try with another body would get 422.
        description:
          'Makes a retry safe: the same key with the same payload within 24 hours returns the first answer and ' +
          'stores nothing new; with a different payload 422; while the first is still running 409. Make a new ' +
          'one per submission, e.g. a UUID such as 9b2f6c1e-3d4a-4f7b-8c5d-0e1f2a3b4c5d.',
      }),
    ),
    'content-encoding': Type.Optional(
      Type.String({
        description:
          'gzip, deflate or br for a compressed body (decoded as it arrives; the body limit counts the decoded ' +
          'bytes); anything else is 415 unsupported_encoding',
      }),
    ),
  },
  { additionalProperties: true },
);
