import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { Database } from '../../storage/database.js';
import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import {
  abandonClaim,
  claimKey,
  deleteExpiredKeys,
  recordResult,
  type KeyRef,
  type KeyResult,
} from './idempotency-store.js';

export type { KeyRef, KeyResult, LeadKeyResult, ScanKeyResult } from './idempotency-store.js';

/**
 * Where the request's result is recorded, in the same transaction as what it stores: a hot-path verb puts `ref`
 * into its hot write (`keyDone`), a generic write calls `record(trx, result)`. `ref` is null when there is no key.
 */
export interface ResultSlot {
  ref: KeyRef | null;
  record(trx: Transaction<Schema>, result: KeyResult): Promise<void>;
}

export interface IdempotentOutcome<R extends KeyResult> {
  result: R;
  /** True when this is the stored result of an earlier request with the same key and payload. */
  replayed: boolean;
}

/** The slot of a request without a key: nothing to record (one object for all of them). */
const NO_KEY: ResultSlot = { ref: null, record: async () => {} };

/** Same-process requests holding a key, so a concurrent repeat waits for the first answer instead of a 409. */
const holders = new WeakMap<Database, Map<string, Promise<void>>>();
const lastCleanup = new WeakMap<Database, number>();
const CLEANUP_EVERY_MS = 10 * 60 * 1000;

function holdersOf(store: Database): Map<string, Promise<void>> {
  let map = holders.get(store);
  if (!map) {
    map = new Map();
    holders.set(store, map);
  }
  return map;
}

/** Expired keys are deleted now and then as a side effect of claims, off the request's path. */
function cleanUpNowAndThen(ctx: DomainContext): void {
  const now = ctx.clock.now().getTime();
  const last = lastCleanup.get(ctx.store);
  if (last !== undefined && now - last < CLEANUP_EVERY_MS && now >= last) return;
  lastCleanup.set(ctx.store, now);
  void deleteExpiredKeys(ctx).catch(() => undefined);
}

/**
 * Runs one request under an Idempotency-Key (Stripe's semantics, IETF httpapi idempotency-key draft):
 * - no key: just runs it;
 * - a new key (or one whose 24 hours are over): claims it (`in_flight`, committed), runs, and the
 *   result is recorded inside the request's own store transaction, so "stored" and "key done" commit together;
 * - the same key and payload again: the stored result, and nothing new is stored;
 * - the same key with a different payload: 422 idempotency_key_reused;
 * - the same key while the first request is still running: in this process, waits for its answer; on another
 *   instance, 409 idempotency_in_flight with Retry-After.
 * Results are domain results (`kind` says which); http/ turns them into answers.
 * A request that fails (validation, bot check, database) frees its key so a corrected retry can succeed.
 */
export async function runIdempotent<R extends KeyResult>({
  ctx,
  input,
}: VerbArgs<{
  scope: string;
  key: string | null;
  requestHash: string;
  /** The kind of result `run` gives: a stored result of another kind is never replayed as this one. */
  kind: R['kind'];
  run: (slot: ResultSlot) => Promise<R>;
}>): Promise<IdempotentOutcome<R>> {
  const { scope, key, requestHash, run } = input;
  if (key === null) return { result: await run(NO_KEY), replayed: false };

  const ref = { scope, key, requestHash };
  const slot = `${scope}\u0000${key}`;
  const local = holdersOf(ctx.store);
  for (let held = local.get(slot); held; held = local.get(slot)) await held;
  let release!: () => void;
  local.set(slot, new Promise<void>((resolve) => (release = resolve)));

  try {
    const claim = await claimKey(ctx, ref);
    switch (claim.kind) {
      case 'replay':
        // Scopes keep kinds apart (src: for leads, ws: for scans); this only guards against a bug.
        if (claim.result.kind !== input.kind)
          throw new Error(`Idempotency key in ${scope} holds a ${claim.result.kind} result`);
        return { result: claim.result as R, replayed: true };
      case 'mismatch':
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request body; send a new key for a new submission',
        );
      case 'in_flight':
        throw new AppError(
          'idempotency_in_flight',
          'A request with this Idempotency-Key is still being processed; retry in a moment to receive its answer',
          undefined,
          { retryAfterSeconds: 1 },
        );
      case 'claimed':
        break;
    }
    cleanUpNowAndThen(ctx);

    try {
      // The verb records its result with what it stores; a verb that stores nothing records nothing, and the
      // in-flight lease frees such a key later.
      const result = await run({ ref, record: (trx, stored) => recordResult(trx, ref, stored) });
      return { result, replayed: false };
    } catch (error) {
      // Best effort: if the database is gone too, the in-flight lease frees the key later.
      await abandonClaim(ctx, ref, claim.createdAt).catch(() => undefined);
      throw error;
    }
  } finally {
    local.delete(slot);
    release();
  }
}
