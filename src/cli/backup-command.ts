import type { Command } from 'commander';
import { backUpDatabase, type BackupResult } from '../domain/backup/back-up-database.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';

const done: Render = ((r: BackupResult) =>
  `Backed up ${r.leads} lead(s) and ${r.scans} scan(s) to ${r.file} (${r.byteSize} bytes).\n` +
  (r.appSecret === 'APP_SECRET'
    ? 'Its upload keys and bot-check secrets are encrypted under APP_SECRET: ' +
      'keep that value with the backup and restore with it.\n'
    : `Its upload keys and bot-check secrets are encrypted under the app secret copied to ${r.appSecret}: ` +
      'keep the two files together.\n') +
  r.removed.map((file) => `Removed the older backup ${file}.\n`).join('')) as Render;

/**
 * `leadscan backup --to FILE | --dir DIR [--keep N]`: a consistent copy of the SQLite database while the server runs.
 */
export function registerBackupCommand(program: Command, { run, withJson, getConfig }: CliKit) {
  withJson(program.command('backup'))
    .description('copy the SQLite database consistently while the server runs (PostgreSQL: use pg_dump)')
    .option('--to <file>', 'the new backup file (must not exist)')
    .option('--dir <folder>', 'write leadscan-<UTC time>.sqlite into this folder (made if missing, mode 0700)')
    .option('--keep <n>', 'with --dir: then delete the oldest backups there beyond the newest N', positiveInteger)
    .action(
      run((ctx, opts: { to?: string; dir?: string; keep?: number }) => {
        const { database } = getConfig();
        return backUpDatabase(ctx, {
          databaseUrl: database.kind === 'postgres' ? database.url : database.path,
          to: opts.to,
          dir: opts.dir,
          keep: opts.keep,
        });
      }, done),
    );
}
