import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from './schema.js';

export type WriteOp<T> = (trx: Transaction<Schema>) => Promise<T>;

interface Pending {
  run: WriteOp<unknown>;
  /** Tries so far that ended in a serialization failure or deadlock. */
  attempts: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface CommitBatcherOptions {
  /** Most writes folded into one transaction. */
  maxBatch: number;
  /** Transactions committing at once: 1 for SQLite (one writer), a few for PostgreSQL. */
  lanes: number;
  /**
   * Wraps each transaction (SQLite: runs it while the hot writer thread is idle, so the two connections never wait
   * on each other's write lock in this process).
   */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
  /** Called after each successful COMMIT (metrics). */
  onCommit?: (batchSize: number, seconds: number) => void;
}

/** PostgreSQL's "try again" answers: serialization failure and deadlock victim. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export function isRetryableConflict(error: unknown): boolean {
  return RETRYABLE.has(String((error as { code?: unknown } | null)?.code));
}

/** Exponential backoff with full jitter: 2, 4, 8, 16 ms at most. */
function backoffMs(attempt: number): number {
  return Math.random() * 2 ** attempt;
}

/**
 * Group commit. Every write that answers a request goes through `write()`. Writes that arrive while a commit
 * is in progress queue up and are folded into the next transaction, so under load one disk flush serves many
 * requests, while a lone write still commits on the next event-loop turn.
 *
 * Each write runs inside its own SAVEPOINT: a write that throws (a unique-constraint hit, a domain check) is
 * rolled back alone and rejects alone; the others in the batch still commit. A promise returned by `write()`
 * resolves only after COMMIT has returned, and COMMIT returns only after the database has flushed it
 * (SQLite WAL with synchronous=FULL, PostgreSQL with synchronous_commit=on). If COMMIT fails, every write of
 * the batch rejects: nothing is acknowledged that was not made durable.
 *
 * A write op must only talk to the database through `trx`: anything slow inside it (a network call) would hold
 * the whole batch.
 */
export class CommitBatcher {
  private readonly queue: Pending[] = [];
  private running = 0;
  /** Writes waiting out a backoff before their next try. */
  private backingOff = 0;
  private scheduled = false;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  /** Counters for metrics and benchmarks. */
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: CommitBatcherOptions,
  ) {}

  write<T>(run: WriteOp<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The database writer is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: run as WriteOp<unknown>, attempts: 0, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Stop taking writes, then wait until every accepted write has committed or failed. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.running >= this.options.lanes) return;
    this.scheduled = true;
    // setImmediate rather than a microtask: requests parsed in the same I/O phase join this batch.
    setImmediate(() => {
      this.scheduled = false;
      while (this.running < this.options.lanes && this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        this.running += 1;
        void this.commit(batch).finally(() => {
          this.running -= 1;
          this.schedule();
          if (this.idle()) this.notifyIdle();
        });
      }
    });
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.running === 0 && this.backingOff === 0;
  }

  /**
   * A write that lost a serialization conflict or was a deadlock's victim is tried again, alone in a later batch,
   * after a short random wait; the error reaches the caller only after MAX_ATTEMPTS tries.
   */
  private retryOrReject(op: Pending, error: unknown): void {
    if (!isRetryableConflict(error) || op.attempts + 1 >= MAX_ATTEMPTS) {
      op.reject(error);
      return;
    }
    op.attempts += 1;
    this.backingOff += 1;
    setTimeout(() => {
      this.backingOff -= 1;
      this.queue.unshift(op);
      this.schedule();
    }, backoffMs(op.attempts));
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const started = performance.now();
    const exclusive = this.options.exclusive ?? ((run) => run());
    try {
      await exclusive(() => this.db.transaction().execute(async (trx) => {
        // A lone write needs no savepoint: if it throws, the whole transaction rolls back, which is the same
        // thing, and on PostgreSQL it saves two round trips.
        if (batch.length === 1) {
          outcomes.push({ ok: true, value: await batch[0]!.run(trx) });
          return;
        }
        for (const op of batch) outcomes.push(await runIsolated(trx, op.run));
      }));
    } catch (error) {
      for (const op of batch) this.retryOrReject(op, error);
      return;
    }
    this.options.onCommit?.(batch.length, (performance.now() - started) / 1000);
    this.stats.commits += 1;
    this.stats.writes += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else this.retryOrReject(op, outcome.error);
    });
  }
}

async function runIsolated(trx: Transaction<Schema>, run: WriteOp<unknown>): Promise<Outcome> {
  await sql`savepoint leadscan_write`.execute(trx);
  try {
    const value = await run(trx);
    await sql`release savepoint leadscan_write`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    await sql`rollback to savepoint leadscan_write`.execute(trx);
    await sql`release savepoint leadscan_write`.execute(trx);
    return { ok: false, error };
  }
}
