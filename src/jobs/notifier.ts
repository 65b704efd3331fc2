import type { DomainContext } from '../domain/context.js';
import { composeArrivalEmails, composeDigests } from '../domain/notifications/compose-emails.js';
import { deliverDueEmails } from '../domain/notifications/deliver-emails.js';
import { noticeArrivals } from '../domain/notifications/notice-arrivals.js';
import { pruneOutbox } from '../domain/notifications/outbox.js';
import { periodicJob } from './periodic-job.js';

export interface Notifier {
  /** One whole pass, after the one under way if any (tests, and the first pass at start). */
  runOnce(): Promise<void>;
  /** Waits for the pass under way, then stops. */
  stop(): Promise<void>;
}

/** How often the notifier looks; a lead is emailed within a few seconds of its commit when nobody was mailed lately. */
const LOOK_EVERY_MS = 2_000;
/** Emails sent per pass; a backlog drains over the next passes. */
const SENDS_PER_PASS = 20;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * The email side of the server, off the request path: each pass notices new leads and scans, writes the emails
 * people are due (each one, batched to one a minute; the daily summary at 08:00), and sends what the outbox holds.
 * Every step is a transaction of its own, so a crash between them loses nothing: what was noticed is in
 * `notification_pending`, what was written is in the outbox, and an email claimed but not settled is sent again
 * once its claim lapses. With SMTP_URL unset the server does not start it.
 */
export function startNotifier(
  ctx: DomainContext,
  hooks: { onError(error: unknown): void; onSettled?(state: string, error?: string): void | Promise<void> },
  options: { everyMs?: number } = {},
): Notifier {
  let prunedAt = 0;
  // Once stopping, a pass starts no step that can be left to the next run: the server's close waits for it.
  const pass = async (stopping: AbortSignal) => {
    if (stopping.aborted) return;
    await noticeArrivals(ctx);
    await composeArrivalEmails(ctx);
    await composeDigests(ctx);
    if (stopping.aborted) return;
    await deliverDueEmails(ctx, { limit: SENDS_PER_PASS, ...(hooks.onSettled ? { onSettled: hooks.onSettled } : {}) });
    const now = ctx.clock.now().getTime();
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = now;
      await pruneOutbox(ctx);
    }
  };
  const job = periodicJob(pass, { everyMs: options.everyMs ?? LOOK_EVERY_MS, onError: hooks.onError });
  return { runOnce: job.runNow, stop: job.stop };
}
