import type { Transaction } from 'kysely';
import type { KeyDone } from '../../storage/hot-writes.js';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency-key.js';

/** The answer a key replays: what the first request answered. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface KeyRef {
  scope: string;
  key: string;
  requestHash: string;
}

/**
 * An `in_flight` row older than this is taken over: its request died without finishing (process killed,
 * database lost mid-request) and must not block the key for 24 hours. It is well above the longest work that
 * follows a claim (a bot check of at most BOT_CHECK_TIMEOUT_MS, then one commit).
 */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;

export type Claim =
  | { kind: 'claimed'; createdAt: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

/**
 * Claims a key for one request: insert an `in_flight` row (or take over an expired or abandoned one), or, when the
 * key is held, decide from the stored row. The primary key (scope, key) is what makes this hold across instances: a second insert of the
 * same key waits for the first transaction and then sees its row.
 */
export async function claimKey(ctx: DomainContext, ref: KeyRef): Promise<Claim> {
  const now = ctx.clock.now();
  const createdAt = now.toISOString();
  // A new claim, or the take-over of an expired or abandoned one: one upsert either way (a hot write).
  const outcome = await ctx.store.hot.write({
    kind: 'claim',
    claim: {
      ...ref,
      createdAt,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      leaseCutoff: new Date(now.getTime() - IN_FLIGHT_LEASE_MS).toISOString(),
    },
  });
  if (outcome.kind === 'claimed') return { kind: 'claimed', createdAt };
  const row = outcome.row;
  // Deleted between the upsert and the read (abandoned by its holder): the next try claims it.
  if (!row) return { kind: 'in_flight' };
  if (row.request_hash !== ref.requestHash) return { kind: 'mismatch' };
  if (row.state !== 'done' || row.response_status === null || row.response_body === null) return { kind: 'in_flight' };
  return { kind: 'replay', answer: { status: Number(row.response_status), body: JSON.parse(row.response_body) as unknown } };
}

/** The hot write's `done`: marks the key done with the answer, in the transaction of what it answers for. */
export function keyDone(ref: KeyRef, answer: StoredAnswer): KeyDone {
  return { scope: ref.scope, key: ref.key, requestHash: ref.requestHash, status: answer.status, body: JSON.stringify(answer.body) };
}

/** Inside the request's own store transaction: the key is done, with the answer, or not at all. */
export async function recordAnswer(trx: Transaction<Schema>, ref: KeyRef, answer: StoredAnswer): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({
      request_hash: ref.requestHash,
      state: 'done',
      response_status: answer.status,
      response_body: JSON.stringify(answer.body),
    })
    .where('scope', '=', ref.scope)
    .where('key', '=', ref.key)
    .execute();
}

/** The request failed before storing: free the key so a retry (a corrected request, a new bot token) can succeed. */
export async function abandonClaim(ctx: DomainContext, ref: KeyRef, createdAt: string): Promise<void> {
  await ctx.store.writer.write((trx) =>
    trx
      .deleteFrom('idempotency_keys')
      .where('scope', '=', ref.scope)
      .where('key', '=', ref.key)
      .where('state', '=', 'in_flight')
      .where('created_at', '=', createdAt)
      .where('request_hash', '=', ref.requestHash)
      .execute(),
  );
}

/** Deletes expired keys; the index on expires_at keeps it cheap. */
export async function deleteExpiredKeys(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const result = await ctx.store.writer.write((trx) =>
    trx.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst(),
  );
  return Number(result.numDeletedRows);
}
