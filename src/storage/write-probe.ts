import crypto from 'node:crypto';
import type { CommitBatcher } from './commit-batcher.js';
import { isStorageUnavailable } from './storage-errors.js';

/** Why the database cannot take a write, as /healthz and `leadscan doctor` say it (docs/operations.md, "Health"). */
export type WriteProblem = 'disk_full' | 'read_only' | 'unreachable' | 'failed';

export type WriteProbe = { writable: true } | { writable: false; problem: WriteProblem; error: unknown };

/** SQLite's result codes and PostgreSQL's SQLSTATEs (and the OS's errno) for the two problems a person can fix. */
const DISK_FULL = /^(SQLITE_FULL|53100|ENOSPC|EDQUOT)/;
const READ_ONLY = /^(SQLITE_READONLY|25006|EROFS)/;
/** What the database says when it has no code to give (a writer thread's message, a wrapped error). */
const DISK_FULL_MESSAGE = /database or disk is full|no space left on device|disk quota exceeded/i;
const READ_ONLY_MESSAGE = /readonly database|read-only transaction|read-only file system/i;

class ProbeTimeout extends Error {
  constructor(ms: number) {
    super(`the test write did not commit within ${ms} ms`);
    this.name = 'ProbeTimeout';
  }
}

function matches(error: unknown, code: RegExp, message: RegExp, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && code.test(e.code)) return true;
  if (typeof e.message === 'string' && message.test(e.message)) return true;
  if (e.cause !== undefined && matches(e.cause, code, message, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => matches(inner, code, message, depth + 1));
}

/** Names what a failed write met, by the database's own codes: disk full and read-only before "does not answer". */
export function writeProblemOf(error: unknown): WriteProblem {
  if (matches(error, DISK_FULL, DISK_FULL_MESSAGE)) return 'disk_full';
  if (matches(error, READ_ONLY, READ_ONLY_MESSAGE)) return 'read_only';
  return isStorageUnavailable(error) || error instanceof ProbeTimeout ? 'unreachable' : 'failed';
}

/**
 * One cheap write through the same writer and COMMIT as every management write: a row in `app_meta` inserted and
 * deleted in one transaction, so nothing stays behind, yet the commit must reach the disk (SQLite's WAL, PostgreSQL's
 * WAL flush). A write the database cannot take (a full disk, a read-only standby or file) fails here as it would for
 * a lead. Bounded by `timeoutMs`: a database that does not answer is "unreachable", not a hung probe.
 */
export async function probeWrite(writer: CommitBatcher, timeoutMs: number): Promise<WriteProbe> {
  const key = `write-probe-${crypto.randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(timeoutMs)), timeoutMs);
  });
  const write = writer.write(async (trx) => {
    await trx.insertInto('app_meta').values({ key, value: 'write probe' }).execute();
    await trx.deleteFrom('app_meta').where('key', '=', key).execute();
  });
  // A write still queued when the timeout wins settles later on its own; its rejection is not unhandled.
  write.catch(() => undefined);
  try {
    await Promise.race([write, timeout]);
    return { writable: true };
  } catch (error) {
    return { writable: false, problem: writeProblemOf(error), error };
  } finally {
    clearTimeout(timer);
  }
}
