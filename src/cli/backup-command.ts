import type { Command } from 'commander';
import { backUpDatabase, type BackupResult } from '../domain/backup/back-up-database.js';
import type { CliKit, Render } from './kit.js';

const done: Render = ((r: BackupResult) =>
  `Backed up ${r.leads} lead(s) and ${r.scans} scan(s) to ${r.file} (${r.byteSize} bytes).\n`) as Render;

/** `leadscan backup --to FILE`: a consistent copy of the SQLite database, safe while the server runs. */
export function registerBackupCommand(program: Command, { run, withJson, getConfig }: CliKit) {
  withJson(program.command('backup'))
    .description('copy the SQLite database consistently while the server runs (PostgreSQL: use pg_dump)')
    .requiredOption('--to <file>', 'the new backup file (must not exist)')
    .action(
      run((ctx, opts: { to: string }) => {
        const { database } = getConfig();
        return backUpDatabase(ctx, { databaseUrl: database.kind === 'postgres' ? database.url : database.path, to: opts.to });
      }, done),
    );
}
