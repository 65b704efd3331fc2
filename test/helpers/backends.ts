import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';

export type BackendName = 'sqlite' | 'postgres';

export interface TestDatabase {
  backend: BackendName;
  /** What DATABASE_URL would say for this database. */
  url: string;
  /** A scratch directory for this database's data (SQLite file, generated secret). */
  dir: string;
  drop(): Promise<void>;
}

/** PostgreSQL runs when TEST_DATABASE_URL is set (`.ci/run` sets it); otherwise only SQLite. */
export const postgresAdminUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const BACKENDS: BackendName[] = postgresAdminUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export function tempDir(prefix = 'leadscan-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh, empty database: a new SQLite file, or a new PostgreSQL database created for this test. */
export async function createTestDatabase(backend: BackendName): Promise<TestDatabase> {
  const dir = tempDir();
  if (backend === 'sqlite') {
    return {
      backend,
      url: path.join(dir, 'leadscan.sqlite'),
      dir,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!postgresAdminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `leadscan_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    backend,
    url: url.toString(),
    dir,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One test definition, run once per available backend (docs/architecture.md). */
export function describeEachBackend(title: string, body: (backend: BackendName) => void): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, () => body(backend));
  }
}
