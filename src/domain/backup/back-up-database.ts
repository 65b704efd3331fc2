import fs from 'node:fs';
import path from 'node:path';
import { copySqliteDatabase, type BackupResult } from '../../storage/backup.js';
import { redactedUrl } from '../../storage/redact-url.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';

export type { BackupResult } from '../../storage/backup.js';

/**
 * `leadscan backup --to FILE`: a consistent copy of the SQLite database while the server runs, into a new file.
 * PostgreSQL has its own tool for this, and the answer says how to use it.
 */
export async function backUpDatabase(ctx: DomainContext, input: { databaseUrl: string; to: string }): Promise<BackupResult> {
  if (ctx.store.dialect === 'postgres') {
    throw new AppError(
      'invalid_arguments',
      `On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=${input.to} '${redactedUrl(input.databaseUrl)}'`,
    );
  }
  const file = path.resolve(input.to);
  if (fs.existsSync(file)) throw new AppError('invalid_arguments', `${file} already exists; give a new file name`);
  if (!fs.existsSync(path.dirname(file))) throw new AppError('invalid_arguments', `The folder ${path.dirname(file)} does not exist`);
  return copySqliteDatabase(ctx.store, file);
}
