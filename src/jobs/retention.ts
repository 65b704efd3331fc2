import type { DomainContext } from '../domain/context.js';
import { runRetention, type RetentionRun } from '../domain/retention/run-retention.js';
import { periodicJob } from './periodic-job.js';

export interface RetentionJob {
  /** One look now (tests; the first look at start): runs today's purge if no instance has. */
  runOnce(): Promise<RetentionRun | undefined>;
  stop(): Promise<void>;
}

/** How often a serving process asks whether today's run is still to do; the claim makes it once a day overall. */
const LOOK_EVERY_MS = 15 * 60_000;

/** The daily retention run (docs/operations.md, "Retention"), off the request path. */
export function startRetentionJob(
  ctx: DomainContext,
  onError: (error: unknown) => void,
  options: { everyMs?: number } = {},
): RetentionJob {
  const job = periodicJob(() => runRetention(ctx), { everyMs: options.everyMs ?? LOOK_EVERY_MS, onError });
  return { runOnce: job.runNow, stop: job.stop };
}
