import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isAppError, type ErrorCode } from './domain/errors.js';
import { registerKeyCommands } from './cli/key-commands.js';
import { human, positiveInteger, type CliKit, type Io } from './cli/kit.js';
import { registerLeadsCommands } from './cli/leads-commands.js';
import { registerNotifyCommands } from './cli/notify-commands.js';
import { registerPersonCommands } from './cli/person-commands.js';
import { registerPriceListCommands } from './cli/price-list-commands.js';
import { registerQuotesCommands } from './cli/quotes-commands.js';
import { registerInvoicesCommands } from './cli/invoices-commands.js';
import { registerJobsCommands } from './cli/jobs-commands.js';
import { registerBackupCommand } from './cli/backup-command.js';
import { registerCopyToCommand } from './cli/copy-to-command.js';
import { registerAuditCommands } from './cli/audit-commands.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { registerScansCommands } from './cli/scans-commands.js';
import { registerSourceCommands } from './cli/source-commands.js';
import { registerUserCommands } from './cli/user-commands.js';
import { registerWorkspaceCommands } from './cli/workspace-commands.js';
import { linkBaseUrl } from './domain/server-base-url.js';
import { openRuntime } from './runtime.js';
import { cliActor } from './domain/audit/actor.js';

/** What a failed command says: the code and its detail (exit 1; no HTTP status, the CLI is no HTTP client). */
export function problemFromError(error: unknown): { code: ErrorCode; detail: string } {
  if (isAppError(error)) return { code: error.code, detail: error.detail };
  if (error instanceof ConfigError) return { code: 'invalid_configuration', detail: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', detail: message };
}

/**
 * `leadscan`: the same domain verbs as HTTP. Every command takes --json (one JSON document on stdout, nothing
 * else there). Failures exit 1 with one line on stderr; with --json the problem object is also on stdout.
 * The command groups live in src/cli/, one file per area.
 */
export async function main(
  argv: string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env },
) {
  const jsonMode = argv.includes('--json');
  let config: Config | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));

  const run: CliKit['run'] =
    (verb, render = human) =>
    async (...args) => {
      const runtime = await openRuntime(getConfig(), { poolSize: 2, databaseUrl: io.env.DATABASE_URL });
      try {
        // Links use PUBLIC_BASE_URL, else the base URL the server last started with (docs/cli.md).
        const ctx = {
          ...runtime.ctx,
          actor: cliActor(),
          config: { ...runtime.ctx.config, publicBaseUrl: await linkBaseUrl(runtime.ctx) },
        };
        const result = await verb(ctx, ...args);
        // Stored bytes go out exactly; with --json, as one document: { byteSize, base64 } (docs/cli.md).
        if (Buffer.isBuffer(result) && !jsonMode) io.stdout.write(result);
        else if (Buffer.isBuffer(result))
          io.stdout.write(`${JSON.stringify({ byteSize: result.length, base64: result.toString('base64') })}\n`);
        else
          io.stdout.write(
            jsonMode ? `${JSON.stringify(result, null, 2)}\n` : (render as (r: unknown) => string)(result),
          );
      } finally {
        await runtime.store.close();
      }
    };

  const program = new Command('leadscan')
    .description('Leadscan: lead intake and room-scan upload service')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Help shown for a bare group (`leadscan key`) goes to stderr; usage errors are printed below as one line.
      writeErr: (text) => {
        if (!text.startsWith('error:')) io.stderr.write(text);
      },
      outputError: () => {},
    });
  program.addOption(new Option('--json', 'print one JSON document on stdout'));

  const withJson = (cmd: Command) => cmd.option('--json', 'print one JSON document on stdout');
  const kit: CliKit = { io, jsonMode, getConfig, run, withJson };

  withJson(program.command('serve'))
    .description('migrate, then serve HTTP (what `npm start` runs)')
    .option('--workers <n>', 'worker processes (PostgreSQL only)', positiveInteger)
    .action(async (opts: { workers?: number }) => {
      // The server (Fastify, its plugins, the metrics, Redis) is loaded by `serve` only: every other command starts
      // without it.
      const { serveCommand } = await import('./serve-command.js');
      await serveCommand(getConfig(), { workers: opts.workers, stdout: io.stdout, stderr: io.stderr });
    });

  withJson(program.command('migrate'))
    .description('create the database if needed and apply migrations')
    .action(async () => {
      const runtime = await openRuntime(getConfig(), { poolSize: 2, mayCreate: true });
      await runtime.store.close();
      io.stdout.write(jsonMode ? `${JSON.stringify({ ok: true }, null, 2)}\n` : 'Migrations are up to date.\n');
    });

  registerWorkspaceCommands(program, kit);
  registerSourceCommands(program, kit);
  registerKeyCommands(program, kit);
  registerLeadsCommands(program, kit);
  registerScansCommands(program, kit);
  registerPersonCommands(program, kit);
  registerBackupCommand(program, kit);
  registerCopyToCommand(program, kit);
  registerUserCommands(program, kit);
  registerNotifyCommands(program, kit);
  registerAuditCommands(program, kit);
  registerPriceListCommands(program, kit);
  registerQuotesCommands(program, kit);
  registerInvoicesCommands(program, kit);
  registerJobsCommands(program, kit);
  let exitCode = 0;
  registerDoctorCommand(program, kit, (code) => {
    exitCode = code;
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help ends here with code 0; help shown for a bare command group is already on stderr.
      if (error.exitCode === 0) return 0;
      if (error.code === 'commander.help') return 1;
      const line = error.message.replace(/^error: /, '').split('\n')[0] ?? error.message;
      return fail({ code: 'invalid_arguments', detail: `${line} (see leadscan --help)` });
    }
    if (error instanceof InvalidArgumentError) {
      return fail({ code: 'invalid_arguments', detail: error.message });
    }
    return fail(problemFromError(error));
  }

  function fail(problem: { code: ErrorCode; detail: string }): number {
    io.stderr.write(`leadscan: ${problem.detail}\n`);
    if (jsonMode) io.stdout.write(`${JSON.stringify({ ok: false, ...problem })}\n`);
    return 1;
  }
}
