import type { DomainContext } from '../context.js';

/**
 * A daily job runs on one instance at a time, once a day: the instance that turns the job's row from "not done
 * today, not claimed" into "claimed by me until T" runs it; one UPDATE decides, so on PostgreSQL a second instance's
 * UPDATE (which waits for the first one's row lock, then reads the row again) finds it claimed and does nothing.
 * The claim is renewed while the job works and lapses if the instance dies, so another takes the job up.
 */
export async function claimDailyJob(ctx: DomainContext, job: string, owner: string, leaseMs: number): Promise<boolean> {
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  return ctx.store.writer.write(async (trx) => {
    await trx
      .insertInto('job_claims')
      .values({ job, claimed_by: null, claimed_until: null, done_on: null })
      .onConflict((oc) => oc.column('job').doNothing())
      .execute();
    const claimed = await trx
      .updateTable('job_claims')
      .set({ claimed_by: owner, claimed_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('job', '=', job)
      .where((eb) => eb.or([eb('done_on', 'is', null), eb('done_on', '<', today)]))
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now.toISOString())]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  });
}

/** Keeps a claim alive while the job works (called between batches). */
export async function renewJobClaim(ctx: DomainContext, job: string, owner: string, leaseMs: number): Promise<void> {
  const until = new Date(ctx.clock.now().getTime() + leaseMs).toISOString();
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('job_claims')
      .set({ claimed_until: until })
      .where('job', '=', job)
      .where('claimed_by', '=', owner)
      .execute(),
  );
}

/** The job is done for today: released, and not claimable again before tomorrow (UTC). */
export async function finishDailyJob(ctx: DomainContext, job: string, owner: string): Promise<void> {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('job_claims')
      .set({ claimed_until: null, done_on: today })
      .where('job', '=', job)
      .where('claimed_by', '=', owner)
      .execute(),
  );
}
