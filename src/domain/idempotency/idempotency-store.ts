import type { Transaction } from 'kysely';
import type { KeyDone } from '../../storage/hot-writes/idempotency-key.js';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency-key.js';

/** A lead submission's result as its key keeps it: the lead's id (for a honeypot catch, the fake one answered). */
export interface LeadKeyResult {
  kind: 'lead';
  leadId: string;
}

/** A scan upload's result as its key keeps it: the rooms stored (0 for a connection test). */
export interface ScanKeyResult {
  kind: 'scan';
  count: number;
  /** null for a connection test; absent when replayed from a record that kept only the count (see readKeyResult). */
  scanId?: string | null;
}

/** What a key replays: the first request's domain result, with its kind. http/ renders it. */
export type KeyResult = LeadKeyResult | ScanKeyResult;

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
  | { kind: 'replay'; result: KeyResult }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

/**
 * Claims a key for one request: insert an `in_flight` row (or take over an expired or abandoned one), or, when the
 * key is held, decide from the stored row. The primary key (scope, key) is what makes this hold across instances: a
 * second insert of the same key waits for the first transaction and then sees its row.
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
  if (row.state !== 'done' || row.response_body === null) return { kind: 'in_flight' };
  return { kind: 'replay', result: readKeyResult(row.response_body) };
}

/**
 * The stored result of a done key. A record holds the domain result as JSON (`{"kind":"lead","leadId":…}`), with
 * no HTTP status (response_status is null). Records written before that hold the HTTP answer they gave, status 200
 * with `{"ok":true,"id":…}` (a lead) or `{"ok":true,"count":…}` (a scan); they live 24 hours, so both are read.
 */
export function readKeyResult(text: string): KeyResult {
  const stored = JSON.parse(text) as Record<string, unknown> | null;
  if (stored?.kind === 'lead' && typeof stored.leadId === 'string') return { kind: 'lead', leadId: stored.leadId };
  if (stored?.kind === 'scan' && typeof stored.count === 'number') {
    return { kind: 'scan', count: stored.count, scanId: typeof stored.scanId === 'string' ? stored.scanId : null };
  }
  if (stored?.ok === true && typeof stored.id === 'string') return { kind: 'lead', leadId: stored.id };
  if (stored?.ok === true && typeof stored.count === 'number') return { kind: 'scan', count: stored.count };
  throw new Error(`An idempotency record holds a result of unknown shape: ${text.slice(0, 200)}`);
}

/** A result as its record keeps it: only these fields, whatever else the verb's result carries. */
function keyResultText(result: KeyResult): string {
  return result.kind === 'lead'
    ? JSON.stringify({ kind: 'lead', leadId: result.leadId })
    : JSON.stringify({ kind: 'scan', scanId: result.scanId ?? null, count: result.count });
}

/** The hot write's `done`: marks the key done with the result, in the transaction of what it stores. */
export function keyDone(ref: KeyRef, result: KeyResult): KeyDone {
  return { scope: ref.scope, key: ref.key, requestHash: ref.requestHash, status: null, body: keyResultText(result) };
}

/** Inside the request's own store transaction: the key is done, with the result, or not at all. */
export async function recordResult(trx: Transaction<Schema>, ref: KeyRef, result: KeyResult): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({
      request_hash: ref.requestHash,
      state: 'done',
      response_status: null,
      response_body: keyResultText(result),
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
