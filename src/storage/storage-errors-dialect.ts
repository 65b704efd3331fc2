import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { asQueryError } from './storage-errors.js';

/** A connection whose query failures leave storage/ typed (see asQueryError). */
class TypedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      throw asQueryError(error);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

async function typedErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asQueryError(error);
  }
}

/**
 * The driver's own work (taking a pooled connection, BEGIN, COMMIT, ROLLBACK, savepoints) with typed failures; the
 * inner driver always gets its own connection objects back.
 */
class TypedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, TypedConnection>();

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return typedErrors(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await typedErrors(() => this.inner.acquireConnection());
    let typed = this.wrapped.get(connection);
    if (!typed) {
      typed = new TypedConnection(connection);
      this.wrapped.set(connection, typed);
    }
    return typed;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return typedErrors(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return typedErrors(() => this.inner.commitTransaction(innerOf(connection)));
  }

  /**
   * SQLite ends a transaction by itself when a COMMIT (or a statement) fails for want of disk space or I/O
   * (SQLITE_FULL, SQLITE_IOERR): the ROLLBACK that follows then finds none and would throw "cannot rollback - no
   * transaction is active" in place of the failure that matters. The transaction is gone, which is what ROLLBACK is
   * for, so that one answer is taken as done and the caller sees the real error (a full disk: 503, not a 500).
   */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await typedErrors(() => this.inner.rollbackTransaction(innerOf(connection)));
    } catch (error) {
      if (error instanceof Error && /cannot rollback - no transaction is active/.test(error.message)) return;
      throw error;
    }
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return typedErrors(() => this.inner.savepoint!(innerOf(connection), name, compile));
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return typedErrors(() => this.inner.rollbackToSavepoint!(innerOf(connection), name, compile));
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return typedErrors(() => this.inner.releaseSavepoint!(innerOf(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof TypedConnection ? connection.inner : connection;
}

/**
 * A Kysely dialect whose database failures that mean "not now" (a refused or lost connection, a full disk, a busy
 * file) surface as StorageUnavailableError, made here once for every read and generic write. The hot writers do
 * not go through Kysely and type their own.
 */
export function withStorageErrors(dialect: Dialect): Dialect {
  return {
    createDriver: () => new TypedDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
