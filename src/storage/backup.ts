import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Database } from './database.js';

export interface BackupResult {
  file: string;
  byteSize: number;
  leads: number;
  scans: number;
}

/**
 * A consistent copy of a SQLite database into `file` (which the caller has checked: absent, in a folder that
 * exists). `VACUUM INTO` copies the database as one read transaction, a snapshot that holds every commit made
 * before it began, while the server keeps writing (WAL lets readers and the writer run together). It is written
 * under a temporary name, flushed, checked, and only then renamed to `file`, so `file` is either a whole, checked
 * copy or absent.
 */
export async function copySqliteDatabase(store: Database, file: string): Promise<BackupResult> {
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
      counts = copy
        .prepare('select (select count(*) from leads) as leads, (select count(*) from scans) as scans')
        .get() as {
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
