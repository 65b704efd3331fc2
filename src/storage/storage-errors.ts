/**
 * Storage failures that mean "not now" rather than "never": the request stored nothing (or was not confirmed as
 * stored) and the client may retry. src/http/problem.ts maps it to 503 once.
 */
export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
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
