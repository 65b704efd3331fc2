import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { AppError } from '../domain/errors.js';
import { redactedUrl } from './redact-url.js';
import type { Database } from './database.js';

export interface BackupResult {
  file: string;
  byteSize: number;
  leads: number;
  scans: number;
}

/**
 * `leadscan backup --to FILE` (CONTRACT §14). SQLite: `VACUUM INTO` copies the database as one read transaction,
 * a consistent snapshot that holds every commit made before it began, while the server keeps writing (WAL lets
 * readers and the writer run together). It is written under a temporary name, flushed, checked, and only then
 * renamed to FILE, so FILE is either a whole, checked copy or absent. PostgreSQL has its own tool for this.
 */
export async function backupDatabase(store: Database, databaseUrl: string, to: string): Promise<BackupResult> {
  if (store.dialect === 'postgres') {
    throw new AppError(
      'invalid_arguments',
      `On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=${to} '${redactedUrl(databaseUrl)}'`,
    );
  }
  const file = path.resolve(to);
  if (fs.existsSync(file)) throw new AppError('invalid_arguments', `${file} already exists; give a new file name`);
  if (!fs.existsSync(path.dirname(file))) throw new AppError('invalid_arguments', `The folder ${path.dirname(file)} does not exist`);
  const partial = `${file}.partial-${process.pid}`;
  try {
    await sql`vacuum into ${partial}`.execute(store.db);
    const fd = fs.openSync(partial, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const copy = new BetterSqlite3(partial, { readonly: true, fileMustExist: true });
    let counts: { leads: number; scans: number };
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`);
      counts = copy.prepare('select (select count(*) from leads) as leads, (select count(*) from scans) as scans').get() as {
        leads: number;
        scans: number;
      };
    } finally {
      copy.close();
    }
    fs.renameSync(partial, file);
    return { file, byteSize: fs.statSync(file).size, leads: counts.leads, scans: counts.scans };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}
