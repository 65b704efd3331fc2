import crypto from 'node:crypto';
import { sql } from 'kysely';
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

/**
 * Claims one attempt for each scope (an email, an IP address, a user) before a password is checked, in one write:
 * refused with 429 when any scope already has its limit's count within its window (SIGN_IN_LIMIT unless a scope
 * names its own). Counting and claiming in the same transaction is what makes the limit hold under concurrency:
 * fifty parallel wrong passwords get at most ten checks, because the eleventh claim sees the ten before it (SQLite
 * has one writer; PostgreSQL takes a lock). A claim that is not released stays a failure.
 */
export async function claimAttempt(
  ctx: DomainContext,
  scopes: Array<string | { scope: string; limit: AttemptLimit }>,
  refusal: string,
): Promise<Claim> {
  const limited = scopes.map((s) => (typeof s === 'string' ? { scope: s, limit: SIGN_IN_LIMIT } : s));
  const attempt = crypto.randomUUID();
  const now = ctx.clock.now();
  await ctx.store.writer.write(async (trx) => {
    if (ctx.store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    await trx.deleteFrom('sign_in_failures').where('failed_at', '<=', new Date(now.getTime() - KEEP_MS).toISOString()).execute();
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
    if (tripped) throw new AppError('rate_limited', refusal, [], { retryAfterSeconds: tripped.limit.windowMs / 1000 });
    await trx
      .insertInto('sign_in_failures')
      .values(limited.map(({ scope }) => ({ scope, failed_at: now.toISOString(), attempt })))
      .execute();
  });
  return {
    release: async () => {
      await ctx.store.writer.write((trx) => trx.deleteFrom('sign_in_failures').where('attempt', '=', attempt).execute());
    },
  };
}
