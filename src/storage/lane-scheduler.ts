import { asStorageError } from './storage-errors.js';

/**
 * "Try again" answers: PostgreSQL's serialization failure and deadlock victim, and SQLite's answer to a transaction
 * that read, then found another connection (the CLI beside the server, or the server beside the CLI) had written
 * since, so its snapshot cannot write (SQLITE_BUSY_SNAPSHOT, answered at once, without the busy timeout). Each is
 * the whole transaction run again, which then reads what the other wrote.
 */
const RETRYABLE = new Set(['40001', '40P01', 'SQLITE_BUSY_SNAPSHOT']);
/** Tries a write gets when it keeps losing conflicts; the error reaches the caller after the last. */
export const MAX_CONFLICT_ATTEMPTS = 5;

export function isRetryableConflict(error: unknown): boolean {
  return RETRYABLE.has(String((error as { code?: unknown } | null)?.code));
}

/** Exponential backoff with full jitter: 2, 4, 8, 16 ms at most. */
function backoffMs(attempt: number): number {
  return Math.random() * 2 ** attempt;
}

/** A queued write: how often it lost a conflict so far, and how to fail it. */
export interface LaneItem {
  attempts: number;
  reject: (error: unknown) => void;
}

export interface LaneOptions {
  /** Batches committing at once. */
  lanes: number;
  /** Most writes in one batch. */
  maxBatch: number;
}

/**
 * The queue and lanes of a group-commit writer. Writes queue up; once per event-loop turn (setImmediate rather
 * than a microtask, so requests parsed in the same I/O phase join) free lanes each take up to `maxBatch` of them
 * and hand them to `commit`. A write that lost a serialization conflict or was a deadlock's victim goes back to
 * the front of the queue after a short random wait, so the lane is free meanwhile.
 */
export class LaneScheduler<T extends LaneItem> {
  private queue: T[] = [];
  private running = 0;
  /** Writes waiting out a backoff before their next try. */
  private backingOff = 0;
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: LaneOptions,
    private readonly commit: (batch: T[]) => Promise<void>,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    this.schedule();
  }

  /**
   * Tries `item` again after a backoff if `error` is a conflict (or the caller knows it is one: `conflict`) and it has
   * tries left; otherwise rejects it.
   */
  retryOrReject(item: T, error: unknown, conflict = isRetryableConflict(error)): void {
    if (!conflict || item.attempts + 1 >= MAX_CONFLICT_ATTEMPTS) {
      item.reject(asStorageError(error));
      return;
    }
    item.attempts += 1;
    this.backingOff += 1;
    setTimeout(() => {
      this.backingOff -= 1;
      this.queue.unshift(item);
      this.schedule();
    }, backoffMs(item.attempts));
  }

  /** Resolves once every write pushed so far has committed or failed. */
  async whenIdle(): Promise<void> {
    if (this.idle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.running === 0 && this.backingOff === 0;
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.running >= this.options.lanes) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.running < this.options.lanes && this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        this.running += 1;
        // commit settles every write of its batch itself; should it throw, its writes fail rather than hang.
        void this.commit(batch)
          .catch((error: unknown) => {
            for (const item of batch) item.reject(asStorageError(error));
          })
          .finally(() => {
            this.running -= 1;
            this.schedule();
            if (this.idle()) this.notifyIdle();
          });
      }
    });
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
