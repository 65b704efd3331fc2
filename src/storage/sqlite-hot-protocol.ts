/** Messages between the main thread and the SQLite writer thread (plain data, structured-cloned). */
import type { HotResult, HotWrite } from './hot-writes.js';

export type WireOutcome = { ok: true; result: HotResult } | { ok: false; message: string; code: string | undefined };

export type ToWorker =
  | { type: 'batch'; id: number; writes: HotWrite[] }
  | { type: 'pause'; id: number }
  | { type: 'resume' }
  | { type: 'close' };

export type FromWorker =
  | { type: 'done'; seconds: number; size: number; batches: Array<{ id: number; outcomes: WireOutcome[] }> }
  | { type: 'paused'; id: number }
  | { type: 'closed' };
