import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ERROR_CODES, isAppError } from './domain/errors.js';
import { registerKeyCommands } from './cli/key-commands.js';
import { human, positiveInteger, type CliKit, type Io } from './cli/kit.js';
import { registerLeadsCommands } from './cli/leads-commands.js';
import { registerScansCommands } from './cli/scans-commands.js';
import { registerSourceCommands } from './cli/source-commands.js';
import { registerUserCommands } from './cli/user-commands.js';
import { registerWorkspaceCommands } from './cli/workspace-commands.js';
import { openRuntime } from './runtime.js';
import { serveCommand } from './serve-command.js';

function problemFromError(error: unknown): { code: string; detail: string; status: number } {
  if (isAppError(error)) return { code: error.code, detail: error.detail, status: error.status };
  if (error instanceof ConfigError) return { code: 'invalid_configuration', detail: error.message, status: 500 };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', detail: message, status: ERROR_CODES.internal_error.status };
}

/**
 * `leadscan`: the same domain verbs as HTTP. Every command takes --json (one JSON document on stdout, nothing
 * else there). Failures exit 1 with one line on stderr; with --json the problem object is also on stdout.
 * The command groups live in src/cli/, one file per area.
 */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }) {
  const jsonMode = argv.includes('--json');
  let config: Config | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));

  const run: CliKit['run'] =
    (verb, render = human) =>
    async (...args) => {
      const runtime = await openRuntime(getConfig(), { poolSize: 2 });
      try {
        const result = await verb(runtime.ctx, ...args);
        if (Buffer.isBuffer(result)) io.stdout.write(result);
        else io.stdout.write(jsonMode ? `${JSON.stringify(result, null, 2)}\n` : (render as (r: unknown) => string)(result));
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
      await serveCommand(getConfig(), { workers: opts.workers, stdout: io.stdout, stderr: io.stderr });
    });

  withJson(program.command('migrate'))
    .description('apply database migrations')
    .action(run(async () => ({ ok: true }), () => 'Migrations are up to date.\n'));

  registerWorkspaceCommands(program, kit);
  registerSourceCommands(program, kit);
  registerKeyCommands(program, kit);
  registerLeadsCommands(program, kit);
  registerScansCommands(program, kit);
  registerUserCommands(program, kit);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help ends here with code 0; help shown for a bare command group is already on stderr.
      if (error.exitCode === 0) return 0;
      if (error.code === 'commander.help') return 1;
      const line = error.message.replace(/^error: /, '').split('\n')[0] ?? error.message;
      return fail({ code: 'invalid_arguments', detail: `${line} (see leadscan --help)`, status: 400 });
    }
    if (error instanceof InvalidArgumentError) {
      return fail({ code: 'invalid_arguments', detail: error.message, status: 400 });
    }
    return fail(problemFromError(error));
  }

  function fail(problem: { code: string; detail: string; status: number }): number {
    io.stderr.write(`leadscan: ${problem.detail}\n`);
    if (jsonMode) io.stdout.write(`${JSON.stringify({ ok: false, ...problem })}\n`);
    return 1;
  }
}
