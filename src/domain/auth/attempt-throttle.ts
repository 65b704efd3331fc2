import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

/** One advisory lock for every claim on PostgreSQL: claims are tiny, and a single lock cannot deadlock. */
const CLAIM_LOCK = 0x6c73_6901;

export interface Claim {
  /** The attempt succeeded: its rows go, so successes never count. */
  release(): Promise<void>;
}

/**
 * Claims one attempt for each scope (an email, an IP address, a user) before a password is checked, in one write:
 * refused with 429 when any scope already has MAX_FAILURES within WINDOW_MS. Counting and claiming in the same
 * transaction is what makes the limit hold under concurrency: fifty parallel wrong passwords get at most ten
 * checks, because the eleventh claim sees the ten before it (SQLite has one writer; PostgreSQL takes a lock).
 * A claim that is not released stays a failure.
 */
export async function claimAttempt(ctx: DomainContext, scopes: string[], refusal: string): Promise<Claim> {
  const attempt = crypto.randomUUID();
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  await ctx.store.writer.write(async (trx) => {
    if (ctx.store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    await trx.deleteFrom('sign_in_failures').where('failed_at', '<=', since).execute();
    const counts = await trx
      .selectFrom('sign_in_failures')
      .select(['scope', (eb) => eb.fn.countAll<number>().as('n')])
      .where('scope', 'in', scopes)
      .where('failed_at', '>', since)
      .groupBy('scope')
      .execute();
    if (counts.some((c) => Number(c.n) >= MAX_FAILURES)) {
      throw new AppError('rate_limited', refusal, [], { retryAfterSeconds: WINDOW_MS / 1000 });
    }
    await trx
      .insertInto('sign_in_failures')
      .values(scopes.map((scope) => ({ scope, failed_at: now.toISOString(), attempt })))
      .execute();
  });
  return {
    release: async () => {
      await ctx.store.writer.write((trx) => trx.deleteFrom('sign_in_failures').where('attempt', '=', attempt).execute());
    },
  };
}
