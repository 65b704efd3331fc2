/**
 * The SQLite search index thread (search-index.ts): at start keeps the index it finds when its watermark fits the
 * database (else rebuilds it), catches up with what changed since, then keeps it current, a chunk of leads per
 * transaction, looking for new work every `everyMs` when it has none. The first time it has caught up it reports
 * what the start cost (kept or rebuilt, leads indexed, changes applied).
 *
 * It runs at the lowest CPU priority (Linux: nice 19 for this thread only): under load the index waits for spare
 * CPU rather than taking it from the request and writer threads. Search stays exact meanwhile (every lead the index
 * has not caught up with is checked in SQL, a few µs each). A server saturated for minutes on end thus trades search
 * speed for intake, never correctness, and catches up as soon as it has spare CPU (10 to 40 µs a lead).
 *
 * Failures are reported to the main thread to be logged, and the work is tried again at the next round.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { SearchIndex, type IndexStart } from './search-index.js';

export interface IndexerSettings {
  file: string;
  everyMs: number;
}

export type FromIndexer =
  { type: 'failed'; message: string } | { type: 'caught-up'; start: IndexStart; leads: number; changes: number };

const { file, everyMs } = workerData as IndexerSettings;

/** This thread's id as the kernel knows it (Linux), for a priority of its own. */
function threadId(): number | null {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

try {
  const tid = threadId();
  if (tid !== null) os.setPriority(tid, os.constants.priority.PRIORITY_LOW);
} catch {
  // Not permitted, or not Linux: the index then competes for CPU as an equal.
}

const report = (message: FromIndexer) => parentPort!.postMessage(message);

let index: SearchIndex | null = null;
let timer: NodeJS.Timeout | undefined;
let closed = false;
let lastFailure = 0;
let caughtUp = false;

function round(): void {
  timer = undefined;
  if (closed) return;
  try {
    index ??= new SearchIndex(file, { rebuild: 'unless-current' });
    if (index.step() > 0) {
      // More may be waiting: go on at once, but let a 'close' message in between.
      timer = setTimeout(round, 0);
      return;
    }
    if (!caughtUp) {
      caughtUp = true;
      report({ type: 'caught-up', start: index.start!, leads: index.done.leads, changes: index.done.changes });
    }
  } catch (error) {
    // At most one report a minute: a failing index must not flood the log.
    if (Date.now() - lastFailure > 60_000) {
      lastFailure = Date.now();
      report({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  timer = setTimeout(round, everyMs);
}

round();

parentPort!.on('message', (message: { type: 'close' }) => {
  if (message.type !== 'close') return;
  closed = true;
  clearTimeout(timer);
  index?.close();
  parentPort!.close();
});
