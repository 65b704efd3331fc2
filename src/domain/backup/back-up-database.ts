import fs from 'node:fs';
import path from 'node:path';
import { copySqliteDatabase, type BackupResult as CopyResult } from '../../storage/backup.js';
import { redactedUrl } from '../../storage/redact-url.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';

export interface BackupResult extends CopyResult {
  /**
   * Where the secret that encrypts the backup's upload keys and bot-check secrets is: `APP_SECRET` (set in the
   * environment: keep it with the backup), or the copy of the data directory's `app-secret` file written beside
   * the backup (`FILE.app-secret`, mode 0600).
   */
  appSecret: string;
  /** With --keep: the older backups (and their secret files) deleted after this one was written and checked. */
  removed: string[];
}

/** What `--dir` names its backups: `leadscan-2026-11-26T031500Z.sqlite`, so their names sort by age. */
const BACKUP_NAME = /^leadscan-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite$/;
const SECRET_SUFFIX = '.app-secret';

/**
 * `leadscan backup --to FILE`, or `--dir DIR [--keep N]`: a consistent copy of the SQLite database while the
 * server runs, into a new file, with the app secret that its upload keys need (docs/deployment.md, "7. Backups").
 * `--dir` names the file by the time and, with `--keep`, deletes the oldest of its backups beyond N, only once the
 * new one is written and checked. PostgreSQL has its own tool for this, and the answer says how to use it.
 */
export async function backUpDatabase(
  ctx: DomainContext,
  input: { databaseUrl: string; to?: string | undefined; dir?: string | undefined; keep?: number | undefined },
): Promise<BackupResult> {
  if ((input.to === undefined) === (input.dir === undefined)) {
    throw new AppError('invalid_arguments', 'Give either --to FILE or --dir DIR');
  }
  if (input.keep !== undefined && input.dir === undefined) {
    throw new AppError('invalid_arguments', '--keep works with --dir (it keeps the newest N backups in that folder)');
  }
  if (!ctx.store.ops.copiesBackups) {
    const target = input.to ?? path.join(input.dir!, 'leadscan.dump');
    throw new AppError(
      'invalid_arguments',
      `On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=${target} '${redactedUrl(
        input.databaseUrl,
      )}'`,
    );
  }
  let file: string;
  if (input.dir !== undefined) {
    const dir = path.resolve(input.dir);
    // Backups hold personal data and the secret of the upload keys: the folder is the owner's alone.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stamp = ctx.clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replaceAll(':', '');
    file = path.join(dir, `leadscan-${stamp}.sqlite`);
  } else {
    file = path.resolve(input.to!);
    if (!fs.existsSync(path.dirname(file)))
      throw new AppError('invalid_arguments', `The folder ${path.dirname(file)} does not exist`);
  }
  if (fs.existsSync(file)) throw new AppError('invalid_arguments', `${file} already exists; give a new file name`);

  const copy = await copySqliteDatabase(ctx.store, file);
  const appSecret = keepSecretWith(ctx, file);
  const removed =
    input.dir !== undefined && input.keep !== undefined ? pruneBackups(path.dirname(file), input.keep) : [];
  return { ...copy, appSecret, removed };
}

/**
 * The upload keys and bot-check secrets in a backup are encrypted under the app secret: a backup restored without
 * it opens, but cannot show a key. A generated secret lives in the data directory, so it is copied beside the
 * backup; one set in the environment is named, since only the operator holds it.
 */
function keepSecretWith(ctx: DomainContext, file: string): string {
  if (ctx.config.appSecret !== undefined) return 'APP_SECRET';
  const target = `${file}${SECRET_SUFFIX}`;
  fs.copyFileSync(path.join(ctx.config.dataDir, 'app-secret'), target, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(target, 0o600);
  return target;
}

/** Deletes the oldest `leadscan-….sqlite` backups in `dir` beyond the newest `keep`, with their secret files. */
function pruneBackups(dir: string, keep: number): string[] {
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  const old = backups.slice(0, Math.max(0, backups.length - keep)).map((name) => path.join(dir, name));
  for (const file of old) {
    fs.rmSync(file);
    fs.rmSync(`${file}${SECRET_SUFFIX}`, { force: true });
  }
  return old;
}
