import type { DomainContext } from '../domain/context.js';
import { moveAllSearchDocuments } from '../storage/postgres-search-mover.js';
import { periodicJob } from './periodic-job.js';

export interface SearchMover {
  /** One pass now (tests): moves every pending document; 0 on SQLite. */
  runOnce(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/**
 * How often a serving process moves new leads' search documents under the trigram index (PostgreSQL). Search is
 * exact either way (it also scans the pending rows); moving keeps that scan short. Once a second keeps the pending
 * rows to about a second of intake, and does each second's index work in a few large statements instead of one
 * contended insert per lead.
 */
const MOVE_EVERY_MS = 1000;

/** The PostgreSQL search mover (docs/architecture.md, "Inbox search"); on SQLite it has nothing to do and no timer. */
export function startSearchMover(
  ctx: DomainContext,
  onError: (error: unknown) => void,
  options: { everyMs?: number } = {},
): SearchMover {
  if (ctx.store.dialect !== 'postgres') return { runOnce: () => Promise.resolve(0), stop: () => Promise.resolve() };
  const job = periodicJob((signal) => moveAllSearchDocuments(ctx.store.db, () => signal.aborted), {
    everyMs: options.everyMs ?? MOVE_EVERY_MS,
    onError,
  });
  return { runOnce: job.runNow, stop: job.stop };
}
