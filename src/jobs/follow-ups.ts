import type { DomainContext } from '../domain/context.js';
import { runFollowUps, type FollowUpRun } from '../domain/follow-ups/run-follow-ups.js';
import { periodicJob } from './periodic-job.js';

export interface FollowUpJob {
  /** One pass now (tests; the first pass at start). */
  runOnce(): Promise<FollowUpRun | undefined>;
  stop(): Promise<void>;
}

/** How often a serving process looks for reminders due; each is queued once, whichever instance finds it first. */
const LOOK_EVERY_MS = 5 * 60_000;

/**
 * The follow-up reminders (docs/quotes.md, "Follow-ups"), off the request path: the sender's reminder and the
 * customer's, queued into the outbox on their day from 08:00 in the workspace's time zone. The notifier sends them.
 */
export function startFollowUpJob(
  ctx: DomainContext,
  onError: (error: unknown) => void,
  options: { everyMs?: number } = {},
): FollowUpJob {
  const job = periodicJob(() => runFollowUps({ ctx, input: { emailOn: Boolean(ctx.mail) } }), {
    everyMs: options.everyMs ?? LOOK_EVERY_MS,
    onError,
  });
  return { runOnce: job.runNow, stop: job.stop };
}
