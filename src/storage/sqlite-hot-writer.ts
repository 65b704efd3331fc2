import { MessageChannel, Worker, type TransferListItem } from 'node:worker_threads';
import type { HotResult, HotWrite, HotWriter, ResultOf } from './hot-writes.js';
import type { FromWorker, ToWorker, WireOutcome } from './sqlite-hot-protocol.js';
import type { FromIndexer, IndexerSettings } from './sqlite-search-indexer.js';
import { asStorageError, HotWriteError, StorageUnavailableError } from './storage-errors.js';

interface Waiter {
  resolve: (result: HotResult) => void;
  reject: (error: unknown) => void;
}

export interface SqliteHotWriterOptions {
  onCommit?: (batchSize: number, seconds: number) => void;
  /**
   * false: start only the checkpoint and search index threads, never the writer thread (the hot writes go through
   * the commit batcher instead, batched-hot-writer.ts: LEADSCAN_WRITE_PATH=batcher, a bench switch).
   */
  writerThread?: boolean;
}

/** How often the search index thread looks for new leads when it has caught up. */
const SEARCH_INDEX_EVERY_MS = 50;

/**
 * Starts a thread from the compiled .js next to this file (`name`.js), or, when running from TypeScript sources
 * (tests, `tsx`), through tsx's loader registered inside the new thread.
 */
function startThread(name: string, workerData: unknown, transferList: TransferListItem[] = []): Worker {
  const here = new URL(import.meta.url);
  const ts = here.pathname.endsWith('.ts');
  const entry = new URL(`./${name}.${ts ? 'ts' : 'js'}`, here);
  const options = { workerData, transferList };
  if (!ts) return new Worker(entry, options);
  const href = JSON.stringify(entry.href);
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${href}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** How often the checkpoint thread copies the WAL back into the database file. */
const CHECKPOINT_EVERY_MS = 50;

/**
 * Batches posted and not yet answered, at most: one the thread is committing and one waiting in its queue. Writes
 * that come meanwhile gather here and go as one message when the first answer comes back, so a busy server posts
 * once per COMMIT rather than once per event-loop turn (each message costs the main thread a structured clone
 * and a wake-up of the thread).
 */
const MAX_IN_FLIGHT = 2;

/** Below this a scan body is copied to the thread; above it, its memory is handed over instead. */
const MOVE_BODIES_FROM = 64 * 1024;

/**
 * The memory of large scan bodies, moved to the writer thread rather than copied (a 30 MiB upload would otherwise
 * exist twice while it is stored). Only a body that is the whole of its own ArrayBuffer is moved: a slice of a
 * shared buffer (Node's small-buffer pool, a socket chunk) is copied as before. A moved Buffer is empty afterwards:
 * the body's type, HandedOverBytes, says so to whoever holds it.
 */
function movableBodies(writes: HotWrite[]): ArrayBuffer[] {
  const moved = new Set<ArrayBuffer>();
  for (const write of writes) {
    if (write.kind !== 'scan') continue;
    const raw = write.scan.raw;
    if (
      raw.byteLength >= MOVE_BODIES_FROM &&
      raw.byteOffset === 0 &&
      raw.buffer instanceof ArrayBuffer &&
      raw.byteLength === raw.buffer.byteLength
    ) {
      moved.add(raw.buffer);
    }
  }
  return [...moved];
}

/**
 * The main thread's side of the SQLite writer thread. Writes are queued and posted as data once per event-loop
 * turn; each resolves when the worker reports the COMMIT that holds it. If the thread dies, every write in flight
 * rejects with StorageUnavailableError (503), never a 200; the next write starts a new thread.
 *
 * `exclusive(fn)` runs fn (a generic Kysely write on the main connection) while the thread holds no transaction
 * and starts none, so the two connections never wait on each other's lock in this process.
 */
export class SqliteHotWriter implements HotWriter {
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };
  private worker: Worker | null = null;
  private checkpointer: Worker | null = null;
  private indexer: Worker | null = null;
  /**
   * What the search index thread's start cost, once it has caught up: whether it kept the index it found, and the
   * leads and changes it indexed to catch up (a start after a quiet stop: 'resumed', 0, 0).
   */
  searchIndexStart: { start: 'resumed' | 'rebuilt'; leads: number; changes: number } | null = null;
  private port: import('node:worker_threads').MessagePort | null = null;
  private queue: Array<{ write: HotWrite; waiter: Waiter }> = [];
  private inFlight = new Map<number, Waiter[]>();
  private pauses = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
  private nextId = 1;
  private exclusiveHolds = 0;
  private scheduled = false;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly options: SqliteHotWriterOptions = {},
  ) {}

  write<W extends HotWrite>(write: W): Promise<ResultOf<W>> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('The database writer is closed'));
    if (this.options.writerThread === false)
      return Promise.reject(new Error('This SQLite writer has no writer thread'));
    return new Promise<HotResult>((resolve, reject) => {
      this.queue.push({ write, waiter: { resolve, reject } });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }) as Promise<ResultOf<W>>;
  }

  /**
   * Starts the writer thread now rather than at the first write: the server pays its start-up (and its memory)
   * before the first request, and no generic write can be under way while the thread starts.
   */
  start(): void {
    if (!this.closed) this.ensureWorker();
  }

  /**
   * Whether the writer thread is running (with it, the search index thread applies deleted leads to the index);
   * without a writer thread (`writerThread: false`), whether the search index thread is.
   */
  get threaded(): boolean {
    return this.options.writerThread === false ? this.indexer !== null : this.worker !== null;
  }

  /** Runs fn while the writer thread is idle (it finishes its current transaction first and waits). */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.worker) return fn();
    const id = this.nextId++;
    // Keep the process alive while waiting for the thread to pause: a write made while the server shuts down
    // (the intake log's last flush) must not be cut off by an event loop with nothing else left to do.
    this.exclusiveHolds += 1;
    this.port!.ref();
    try {
      await new Promise<void>((resolve, reject) => {
        this.pauses.set(id, { resolve, reject });
        this.send({ type: 'pause', id });
      });
      try {
        return await fn();
      } finally {
        if (this.worker) this.send({ type: 'resume' });
      }
    } finally {
      this.exclusiveHolds -= 1;
      this.unrefWhenIdle();
    }
  }

  private unrefWhenIdle(): void {
    if (this.inFlight.size === 0 && this.exclusiveHolds === 0) this.port?.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing ??= (async () => {
      if (this.queue.length > 0) this.flush(true);
      await Promise.all([
        stopThread(this.checkpointer, () => this.checkpointer!.postMessage({ type: 'close' })),
        stopThread(this.indexer, () => this.indexer!.postMessage({ type: 'close' })),
        stopThread(this.worker, () => this.send({ type: 'close' })),
      ]);
    })();
    return this.closing;
  }

  /** Stops the thread at once, as a crash would (tests of what a lost writer answers). */
  async terminate(): Promise<void> {
    await this.worker?.terminate();
  }

  private send(message: ToWorker): void {
    this.port!.postMessage(message);
  }

  private ensureWorker(): void {
    this.ensureCheckpointer();
    this.ensureIndexer();
    if (this.worker) return;
    if (this.options.writerThread === false) return;
    const channel = new MessageChannel();
    const worker = startThread('sqlite-hot-worker', { file: this.file, port: channel.port2 }, [channel.port2]);
    this.worker = worker;
    this.port = channel.port1;
    channel.port1.on('message', (message: FromWorker) => this.receive(message));
    // A thread that has nothing to do must not keep the process alive.
    channel.port1.unref();
    worker.unref();
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`The SQLite writer thread exited (code ${code})`)));
  }

  /**
   * The search index thread (search-index.ts). If it is lost, search still finds every lead (the ones it has not
   * indexed are all candidates) and the next server start catches the index up.
   */
  private ensureIndexer(): void {
    if (this.indexer || this.closed) return;
    const settings: IndexerSettings = { file: this.file, everyMs: SEARCH_INDEX_EVERY_MS };
    this.indexer = startHelperThread('sqlite-search-indexer', settings, (lost) => {
      if (this.indexer === lost) this.indexer = null;
    });
    this.indexer.on('message', (message: FromIndexer) => {
      if (message.type === 'failed')
        process.emitWarning(`The search index could not be updated: ${message.message}`, 'LeadscanSearchIndex');
      if (message.type === 'caught-up')
        this.searchIndexStart = { start: message.start, leads: message.leads, changes: message.changes };
    });
  }

  /** The checkpoint thread; if it is lost, the writer's own auto-checkpoint still bounds the WAL. */
  private ensureCheckpointer(): void {
    if (this.checkpointer || this.closed) return;
    this.checkpointer = startHelperThread(
      'sqlite-checkpointer',
      { file: this.file, everyMs: CHECKPOINT_EVERY_MS },
      (lost) => {
        if (this.checkpointer === lost) this.checkpointer = null;
      },
    );
  }

  private flush(force = false): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    // The answer that frees a place posts what has gathered (receive).
    if (!force && this.inFlight.size >= MAX_IN_FLIGHT) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.ensureWorker();
    } catch (error) {
      for (const { waiter } of batch)
        waiter.reject(new StorageUnavailableError('The SQLite writer could not start', { cause: error }));
      return;
    }
    const id = this.nextId++;
    this.inFlight.set(
      id,
      batch.map((b) => b.waiter),
    );
    // Keep the process alive while a write waits for its answer (a CLI command, a draining server).
    this.port!.ref();
    const writes = batch.map((b) => b.write);
    this.port!.postMessage({ type: 'batch', id, writes } satisfies ToWorker, movableBodies(writes));
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'done': {
        this.stats.commits += 1;
        this.stats.writes += message.size;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, message.size);
        if (message.batches.some((b) => b.outcomes.some((o) => o.ok)))
          this.options.onCommit?.(message.size, message.seconds);
        for (const { id, outcomes } of message.batches) {
          const waiters = this.inFlight.get(id) ?? [];
          this.inFlight.delete(id);
          outcomes.forEach((outcome, i) => settle(waiters[i]!, outcome));
        }
        if (this.queue.length > 0 && !this.scheduled) this.flush();
        this.unrefWhenIdle();
        return;
      }
      case 'paused': {
        this.pauses.get(message.id)?.resolve();
        this.pauses.delete(message.id);
        return;
      }
      case 'closed':
        return;
    }
  }

  /** The thread is gone: nothing it had not answered may be acknowledged. */
  private lost(worker: Worker, cause: unknown): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.port?.close();
    this.port = null;
    const error = new StorageUnavailableError('The SQLite writer stopped; the write was not confirmed as stored', {
      cause,
    });
    for (const waiters of this.inFlight.values()) for (const waiter of waiters) waiter.reject(error);
    this.inFlight.clear();
    for (const pause of this.pauses.values()) pause.resolve();
    this.pauses.clear();
    // Writes that were never posted go to a new thread, unless the writer is closing.
    if (this.closed) for (const { waiter } of this.queue.splice(0)) waiter.reject(error);
    else if (this.queue.length > 0) this.flush();
  }
}

/** A thread that does not keep the process alive; `lost` is told when it fails or exits. */
function startHelperThread(name: string, workerData: unknown, lost: (thread: Worker) => void): Worker {
  const thread = startThread(name, workerData);
  thread.unref();
  thread.on('error', () => lost(thread));
  thread.on('exit', () => lost(thread));
  return thread;
}

/** Asks a thread to close (`askToClose`) and resolves when it has exited; at once if there is none. */
function stopThread(thread: Worker | null, askToClose: () => void): Promise<void> {
  if (!thread) return Promise.resolve();
  return new Promise<void>((resolve) => {
    thread.once('exit', () => resolve());
    askToClose();
  });
}

function settle(waiter: Waiter, outcome: WireOutcome): void {
  if (outcome.ok) waiter.resolve(outcome.result);
  else waiter.reject(asStorageError(new HotWriteError(outcome.message, outcome.code)));
}
