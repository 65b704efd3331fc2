import path from 'node:path';
import type { Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { CopyRefused, copyToPostgres, type CopyResult } from '../storage/copy-to-postgres.js';
import type { CliKit } from './kit.js';

const done = (r: CopyResult) =>
  `Copied into ${r.target}:\n` +
  Object.entries(r.tables)
    .map(([table, rows]) => `  ${table}: ${rows} row(s)\n`)
    .join('') +
  `Wrote ${r.searchDocuments} search document(s); inbox search on PostgreSQL finds every copied lead.\n` +
  'Sessions and one-time links were copied: people stay signed in and unused links keep working.\n' +
  (r.appSecretFile
    ? `Upload keys and bot-check secrets are encrypted under the app secret in ${r.appSecretFile}: ` +
      'start the PostgreSQL server with APP_SECRET set to its contents.\n'
    : 'Upload keys and bot-check secrets are encrypted under APP_SECRET: ' +
      'start the PostgreSQL server with the same APP_SECRET.\n');

/**
 * `leadscan copy-to POSTGRES_URL`: the SQLite database the CLI opens (DATABASE_URL) into an empty PostgreSQL
 * database (docs/deployment.md, "9. Outgrowing SQLite"). Not through the runtime: it must not migrate or start writers
 * on the source.
 */
export function registerCopyToCommand(program: Command, { io, jsonMode, withJson, getConfig }: CliKit) {
  withJson(program.command('copy-to'))
    .description('copy the SQLite database into an empty PostgreSQL database (stop the server first)')
    .argument('<postgres-url>', 'the target, postgres://…; it is migrated, then filled in one transaction')
    .action(async (url: string) => {
      const config = getConfig();
      if (config.database.kind !== 'sqlite') {
        throw new AppError(
          'invalid_arguments',
          'copy-to copies from SQLite: DATABASE_URL names a PostgreSQL database (use pg_dump there)',
        );
      }
      const { path: file } = config.database;
      if (file === ':memory:') throw new AppError('invalid_arguments', 'copy-to needs a SQLite file, not :memory:');
      const result = await copyToPostgres({
        sqlitePath: file,
        targetUrl: url,
        appSecretFile: config.appSecret ? undefined : path.join(config.dataDir, 'app-secret'),
      }).catch((error: unknown) => {
        throw error instanceof CopyRefused ? new AppError(error.code, error.message) : error;
      });
      io.stdout.write(jsonMode ? `${JSON.stringify(result, null, 2)}\n` : done(result));
    });
}
