/**
 * Storage failures that mean "not now" rather than "never": the request stored nothing (or was not confirmed as
 * stored) and the client may retry. Made here in storage/, by the database handle's connections and queries
 * (storage-errors-dialect.ts) and by the writers; src/http/problem.ts maps it to 503 service_unavailable, once.
 * The message is the database's own (logs and the CLI show it); the original error is the `cause`.
 */
export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/**
 * Text the database cannot hold: PostgreSQL refuses a NUL byte in text (SQLSTATE 22021, "invalid byte sequence for
 * encoding UTF8: 0x00") and text it cannot convert (22P05). The domain refuses control characters before they get
 * this far; this types what slips past it, so the answer is a 400 naming the problem and never a 500.
 */
export class UnstorableTextError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The request holds text with a NUL byte or another character the database cannot store', options);
    this.name = 'UnstorableTextError';
  }
}

const POSTGRES_UNSTORABLE_TEXT = new Set(['22021', '22P05']);

function unstorable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof UnstorableTextError) return true;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return (
    (typeof code === 'string' && POSTGRES_UNSTORABLE_TEXT.has(code)) ||
    (cause !== undefined && unstorable(cause, depth + 1))
  );
}

/** An UnstorableTextError for the database's own "cannot store this text" error, or null for any other. */
export function unstorableText(error: unknown): UnstorableTextError | null {
  if (error instanceof UnstorableTextError) return error;
  return unstorable(error) ? new UnstorableTextError({ cause: error }) : null;
}

/** PostgreSQL's unique_violation. */
const POSTGRES_UNIQUE_VIOLATION = '23505';

/**
 * A PostgreSQL unique violation (SQLSTATE 23505), looking through `cause`. Under READ COMMITTED it means, for a write
 * that checked first, that another transaction committed the same key after the check: commit-batcher.ts runs the
 * write once more, and its own check then answers. SQLite's writes are never raced so (one writer at a time).
 */
export function isUniqueViolation(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === POSTGRES_UNIQUE_VIOLATION || (cause !== undefined && isUniqueViolation(cause, depth + 1));
}

/** A hot write that failed in the writer thread, with the database's own error code (e.g. SQLITE_CONSTRAINT_…). */
export class HotWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'HotWriteError';
  }
}

/**
 * PostgreSQL SQLSTATEs meaning "not now" rather than "never": connection exceptions (08), insufficient resources
 * (53), operator intervention (57: shutdown, cannot connect now, statement cancelled), a read-only server (25006,
 * e.g. a standby during failover), and serialization failures/deadlocks (40001, 40P01) that a retry clears.
 */
const POSTGRES_UNAVAILABLE_CLASSES = ['08', '53', '57'];
const POSTGRES_UNAVAILABLE = new Set(['25006']);
/** Retried by the writers first (commit-batcher.ts, postgres-hot-writer.ts); "not now" once they give up. */
const POSTGRES_CONFLICT = new Set(['40001', '40P01']);
const NETWORK_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** A stale snapshot that cannot write: retried by the writer like PostgreSQL's conflicts (lane-scheduler.ts). */
const SQLITE_CONFLICT = 'SQLITE_BUSY_SNAPSHOT';
const SQLITE_UNAVAILABLE = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
];
/** pg and pg-pool report a lost or refused connection only in the message. */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'connection timeout',
    'Client has encountered a connection error',
    'Cannot use a pool after calling end',
    'The database writer is closed',
  ].join('|'),
  'i',
);

function isUnavailableCode(code: unknown, conflicts: boolean): boolean {
  if (typeof code !== 'string') return false;
  if (NETWORK_UNAVAILABLE.has(code) || POSTGRES_UNAVAILABLE.has(code)) return true;
  if (POSTGRES_CONFLICT.has(code) || code === SQLITE_CONFLICT) return conflicts;
  if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  return SQLITE_UNAVAILABLE.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));
}

function unavailable(error: unknown, conflicts: boolean, depth: number): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof StorageUnavailableError) return true;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (isUnavailableCode(code, conflicts)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (cause !== undefined && unavailable(cause, conflicts, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => unavailable(inner, conflicts, depth + 1));
}

/**
 * A database that does not answer (or answers "not now"), as opposed to a bug or a refused value. Looks through
 * `cause` and AggregateError's `errors` (Node reports a refused dual-stack connect as an AggregateError).
 */
export function isStorageUnavailable(error: unknown): boolean {
  return unavailable(error, true, 0);
}

function typed(error: unknown): StorageUnavailableError {
  if (error instanceof StorageUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StorageUnavailableError(message, { cause: error });
}

/**
 * The StorageUnavailableError for a "not now" failure, or null for any other. A writer that rejects with the
 * database's own error (a pg error, a HotWriteError with SQLITE_BUSY) is typed here on its way to the answer.
 */
export function storageUnavailable(error: unknown): StorageUnavailableError | null {
  return unavailable(error, true, 0) ? typed(error) : null;
}

/**
 * What a writer rejects with once it has stopped retrying: a "not now" failure, a serialization failure or deadlock
 * included, as a StorageUnavailableError; anything else (a constraint, a bug) as it is.
 */
export function asStorageError(error: unknown): unknown {
  return unavailable(error, true, 0) ? typed(error) : error;
}

/**
 * For the database handle's own connections and queries: as asStorageError, except that a serialization failure or
 * deadlock is left as it is, for the writer around the query to retry by its SQLSTATE.
 */
export function asQueryError(error: unknown): unknown {
  return unavailable(error, false, 0) ? typed(error) : error;
}

/** SQLite's SQLITE_BUSY, as the driver threw it or inside the StorageUnavailableError it became. */
export function isSqliteBusy(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === 'SQLITE_BUSY' || isSqliteBusy(cause, depth + 1);
}
