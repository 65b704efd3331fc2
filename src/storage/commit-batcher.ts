import { sql, type Kysely, type Transaction } from 'kysely';
import { isRetryableConflict, LaneScheduler, type LaneItem } from './lane-scheduler.js';
import { isSqliteBusy, isUniqueViolation, StorageUnavailableError } from './storage-errors.js';
import type { Schema } from './schema.js';

export type WriteOp<T> = (trx: Transaction<Schema>) => Promise<T>;

/**
 * SQLITE_BUSY sooner than this after the transaction began is no busy timeout spent (5 s): it is SQLite refusing at
 * once to turn a transaction that has read into one that writes while another process holds the write lock (the CLI
 * beside the server). That transaction is run again, as a conflict; a busy timeout spent is "not now" (503).
 */
const QUICK_BUSY_MS = 1000;

interface Pending extends LaneItem {
  run: WriteOp<unknown>;
  resolve: (value: unknown) => void;
  /** Already run again once after a unique violation (see `failed`). */
  raced?: boolean;
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
  private readonly lanes: LaneScheduler<Pending>;
  private closed = false;
  /** Counters for metrics and benchmarks. */
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: CommitBatcherOptions,
  ) {
    this.lanes = new LaneScheduler(options, (batch) => this.commit(batch));
  }

  write<T>(run: WriteOp<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('The database writer is closed'));
    return new Promise<T>((resolve, reject) => {
      this.lanes.push({
        run: run as WriteOp<unknown>,
        attempts: 0,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
    });
  }

  /** Stop taking writes, then wait until every accepted write has committed or failed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.lanes.whenIdle();
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const started = performance.now();
    const exclusive = this.options.exclusive ?? ((run) => run());
    try {
      await exclusive(() =>
        this.db.transaction().execute(async (trx) => {
          // A lone write needs no savepoint: if it throws, the whole transaction rolls back, which is the same
          // thing, and on PostgreSQL it saves two round trips.
          if (batch.length === 1) {
            outcomes.push({ ok: true, value: await batch[0]!.run(trx) });
            return;
          }
          for (const op of batch) outcomes.push(await runIsolated(trx, op.run));
        }),
      );
    } catch (error) {
      const quick = performance.now() - started < QUICK_BUSY_MS;
      for (const op of batch) this.failed(op, error, quick);
      return;
    }
    this.options.onCommit?.(batch.length, (performance.now() - started) / 1000);
    this.stats.commits += 1;
    this.stats.writes += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    const quick = performance.now() - started < QUICK_BUSY_MS;
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else this.failed(op, outcome.error, quick);
    });
  }

  /**
   * A write that failed: a serialization conflict or deadlock, a stale SQLite snapshot, or a quick SQLITE_BUSY
   * (`QUICK_BUSY_MS`) is tried again (lane-scheduler.ts); a unique violation
   * (PostgreSQL) is run once more at once. Under READ COMMITTED two writes can both check that a key is free (a stage
   * or source name, a quarantined lead not yet restored) and both insert it; the second waits for the first and then
   * fails on the unique index. Run again, its own check sees the row the first committed and answers as the domain
   * does (`stage_name_taken`, `name_taken`, `already_restored`) rather than with a 500. A second violation is no such
   * race, and rejects as it is.
   */
  private failed(op: Pending, error: unknown, quick = false): void {
    if (isUniqueViolation(error) && !op.raced) {
      op.raced = true;
      this.lanes.push(op);
      return;
    }
    this.lanes.retryOrReject(op, error, isRetryableConflict(error) || (quick && isSqliteBusy(error)));
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
