import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

/** How many attempts a scope may claim within a window. */
export interface AttemptLimit {
  max: number;
  windowMs: number;
}

/** Sign-in and the current-password check: 10 attempts per 15 minutes. */
export const SIGN_IN_LIMIT: AttemptLimit = { max: MAX_FAILURES, windowMs: WINDOW_MS };

/** Rows older than the longest window of any limit are pruned on every claim (password resets count over an hour). */
const KEEP_MS = 60 * 60 * 1000;

/** One advisory lock for every claim on PostgreSQL: claims are tiny, and a single lock cannot deadlock. */
const CLAIM_LOCK = 0x6c73_6901;

export interface Claim {
  /** The attempt succeeded: its rows go, so successes never count. */
  release(): Promise<void>;
}

interface LimitedScope {
  scope: string;
  limit: AttemptLimit;
}

/**
 * Runs inside the refusing transaction, for the first refusal of a throttled scope within its window only (a
 * caller records it there): someone hammering a limited form cannot fill the audit log, one refusal a window does.
 */
export type FirstRefusal = (trx: Transaction<Schema>) => Promise<void>;

/** The row that says a scope's refusal was already reported in this window; never counted as an attempt. */
const refusedScope = (scope: string) => `refused:${scope}`;

/** Whether this refusal is the scope's first within its window; if it is, it is marked so later ones are not. */
async function isFirstRefusal(trx: Transaction<Schema>, tripped: LimitedScope, now: Date): Promise<boolean> {
  const marker = refusedScope(tripped.scope);
  const since = new Date(now.getTime() - tripped.limit.windowMs).toISOString();
  const earlier = await trx
    .selectFrom('sign_in_failures')
    .select('scope')
    .where('scope', '=', marker)
    .where('failed_at', '>', since)
    .executeTakeFirst();
  if (earlier) return false;
  await trx
    .insertInto('sign_in_failures')
    .values({ scope: marker, failed_at: now.toISOString(), attempt: null })
    .execute();
  return true;
}

/**
 * Claims one attempt for each scope (an email, an IP address, a user) before a password is checked, in one write:
 * refused with 429 when any scope already has its limit's count within its window (SIGN_IN_LIMIT unless a scope
 * names its own). Counting and claiming in the same transaction is what makes the limit hold under concurrency:
 * fifty parallel wrong passwords get at most ten checks, because the eleventh claim sees the ten before it (SQLite
 * has one writer; PostgreSQL takes a lock). A claim that is not released stays a failure. A refusal is not an
 * attempt: it adds no row, except the mark that makes `onFirstRefusal` run once per scope and window.
 */
export async function claimAttempt(
  ctx: DomainContext,
  scopes: Array<string | { scope: string; limit: AttemptLimit }>,
  refusal: string,
  onFirstRefusal?: FirstRefusal,
): Promise<Claim> {
  const limited: LimitedScope[] = scopes.map((s) => (typeof s === 'string' ? { scope: s, limit: SIGN_IN_LIMIT } : s));
  const attempt = crypto.randomUUID();
  const now = ctx.clock.now();
  // A refusal commits (its first-of-window mark and what the caller records) and is thrown after the commit.
  const tripped = await ctx.store.writer.write(async (trx): Promise<LimitedScope | null> => {
    await ctx.store.ops.lock(trx, CLAIM_LOCK);
    await trx
      .deleteFrom('sign_in_failures')
      .where('failed_at', '<=', new Date(now.getTime() - KEEP_MS).toISOString())
      .execute();
    const rows = await trx
      .selectFrom('sign_in_failures')
      .select(['scope', 'failed_at'])
      .where(
        'scope',
        'in',
        limited.map((s) => s.scope),
      )
      .execute();
    const tripped = limited.find(({ scope, limit }) => {
      const since = new Date(now.getTime() - limit.windowMs).toISOString();
      return rows.filter((r) => r.scope === scope && r.failed_at > since).length >= limit.max;
    });
    if (tripped) {
      if (onFirstRefusal && (await isFirstRefusal(trx, tripped, now))) await onFirstRefusal(trx);
      return tripped;
    }
    await trx
      .insertInto('sign_in_failures')
      .values(limited.map(({ scope }) => ({ scope, failed_at: now.toISOString(), attempt })))
      .execute();
    return null;
  });
  if (tripped) throw new AppError('rate_limited', refusal, [], { retryAfterSeconds: tripped.limit.windowMs / 1000 });
  return {
    release: async () => {
      await ctx.store.writer.write((trx) =>
        trx.deleteFrom('sign_in_failures').where('attempt', '=', attempt).execute(),
      );
    },
  };
}
