import crypto from 'node:crypto';
import net from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import {
  asQueryError,
  asStorageError,
  storageUnavailable,
  StorageUnavailableError,
} from '../../src/storage/storage-errors.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/** A loopback port nobody listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('storage errors', () => {
  let world: TestWorld | undefined;
  let store: Database | undefined;
  afterEach(async () => {
    await world?.close();
    await store?.close();
    world = undefined;
    store = undefined;
  });

  it('SQLite: a locked database is a StorageUnavailableError made in storage/; a refused value is not', async () => {
    world = await createWorld('sqlite');
    const db = world.store.db;
    // Fail at once instead of waiting out the busy timeout (this connection only).
    await sql`pragma busy_timeout = 0`.execute(db);
    const other = new BetterSqlite3(world.testDb.url);
    try {
      other.exec('begin immediate');
      const busy = await db
        .insertInto('app_meta')
        .values({ key: 'k', value: 'v' })
        .execute()
        .catch((error: unknown) => error);
      expect(busy).toBeInstanceOf(StorageUnavailableError);
      expect((busy as Error).cause).toMatchObject({ code: 'SQLITE_BUSY' });
      other.exec('rollback');
    } finally {
      other.close();
    }
    await db.insertInto('app_meta').values({ key: 'k', value: 'v' }).execute();
    const duplicate = await db
      .insertInto('app_meta')
      .values({ key: 'k', value: 'v' })
      .execute()
      .catch((error: unknown) => error);
    expect(duplicate).not.toBeInstanceOf(StorageUnavailableError);
    expect(duplicate).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
  });

  it('PostgreSQL: a refused connection is a StorageUnavailableError, and the intake answers it with 503 once', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/leadscan`;
    const appSecret = crypto.randomBytes(32).toString('base64url');
    const config = loadConfig({
      DATABASE_URL: url,
      APP_SECRET: appSecret,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: 'http://leadscan.test',
    });
    store = openDatabase(config.database);
    const refused = await store.db
      .selectFrom('workspaces')
      .selectAll()
      .execute()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StorageUnavailableError);
    expect((refused as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    await expect(store.ping()).rejects.toBeInstanceOf(StorageUnavailableError);

    const app = await buildApp(createDomainContext({ config, store, appSecret }), { logger: false });
    try {
      const response = await app.inject({
        method: 'POST',
        url: `/api/intake/${crypto.randomUUID()}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"Ada"}',
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({
        ok: false,
        code: 'service_unavailable',
        detail: 'The database is not answering; this request was not confirmed as stored. Try again shortly',
      });
    } finally {
      await app.close();
    }
  });

  it('a serialization failure or deadlock stays as it is for the writers to retry, and is "not now" once they give up', () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(asQueryError(deadlock)).toBe(deadlock);
    expect(asStorageError(deadlock)).toBeInstanceOf(StorageUnavailableError);
    expect(storageUnavailable(deadlock)).toMatchObject({ message: 'deadlock detected', cause: deadlock });
    const unique = Object.assign(new Error('duplicate key value'), { code: '23505' });
    expect(asQueryError(unique)).toBe(unique);
    expect(asStorageError(unique)).toBe(unique);
    expect(storageUnavailable(unique)).toBeNull();
  });
});
