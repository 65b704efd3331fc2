import type { DomainContext } from '../domain/context.js';
import { moveAllSearchDocuments } from '../storage/postgres-search-mover.js';

export interface SearchMover {
  /** One pass now (tests): moves every pending document; 0 on SQLite. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * How often a serving process moves new leads' search documents under the trigram index (PostgreSQL). Search is
 * exact either way (it also scans the pending rows); moving keeps that scan short. Once a second keeps the pending
 * rows to about a second of intake, and does each second's index work in a few large statements instead of one
 * contended insert per lead.
 */
const MOVE_EVERY_MS = 1000;

/** The PostgreSQL search mover (docs/architecture.md, "Search"); on SQLite it does nothing. */
export function startSearchMover(ctx: DomainContext, onError: (error: unknown) => void, options: { everyMs?: number } = {}): SearchMover {
  const everyMs = options.everyMs ?? MOVE_EVERY_MS;
  let running: Promise<number> = Promise.resolve(0);
  let busy = false;
  let stopped = false;
  const runOnce = () => {
    if (stopped || ctx.store.dialect !== 'postgres') return running;
    running = running.then(async () => {
      busy = true;
      try {
        return await moveAllSearchDocuments(ctx.store.db, () => stopped);
      } catch (error) {
        onError(error);
        return 0;
      } finally {
        busy = false;
      }
    });
    return running;
  };
  const timer = everyMs > 0 && ctx.store.dialect === 'postgres' ? setInterval(() => void (busy ? undefined : runOnce()), everyMs) : undefined;
  timer?.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
