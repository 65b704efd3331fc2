import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { DomainContext } from './domain/context.js';
import { AppError, ERROR_CODES, isAppError } from './domain/errors.js';
import { regenerateUploadKey } from './domain/keys/regenerate-upload-key.js';
import { showUploadKey } from './domain/keys/show-upload-key.js';
import { listLeads } from './domain/leads/list-leads.js';
import { createPipeline } from './domain/pipelines/create-pipeline.js';
import { listQuarantine } from './domain/quarantine/list-quarantine.js';
import { restoreQuarantined } from './domain/quarantine/restore-quarantined.js';
import { listScans } from './domain/scans/list-scans.js';
import { readScanRaw, readScanRoom } from './domain/scans/read-scan-bytes.js';
import { configureBotCheck, lacksSiteKey, NO_SITE_KEY_NOTE } from './domain/sources/configure-bot-check.js';
import { createSource } from './domain/sources/create-source.js';
import { setSourceActive } from './domain/sources/set-source-active.js';
import { createWorkspace } from './domain/workspaces/create-workspace.js';
import { openRuntime } from './runtime.js';
import { serveCommand } from './serve-command.js';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

type Render = (result: never) => string;

function human(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? '(none)\n' : value.map((item) => human(item)).join('\n');
  }
  if (value && typeof value === 'object') {
    return `${Object.entries(value)
      .map(([k, v]) => `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('\n')}\n`;
  }
  return `${String(value)}\n`;
}

function problemFromError(error: unknown): { code: string; detail: string; status: number } {
  if (isAppError(error)) return { code: error.code, detail: error.detail, status: error.status };
  if (error instanceof ConfigError) return { code: 'invalid_configuration', detail: error.message, status: 500 };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', detail: message, status: ERROR_CODES.internal_error.status };
}

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number (rooms count from 0)');
  return Number(value);
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

function score(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !(parsed >= 0 && parsed <= 1)) throw new InvalidArgumentError('must be between 0 and 1');
  return parsed;
}

/**
 * `leadscan`: the same domain verbs as HTTP. Every command takes --json (one JSON document on stdout, nothing
 * else there). Failures exit 1 with one line on stderr; with --json the problem object is also on stdout.
 */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }) {
  const jsonMode = argv.includes('--json');
  let config: Config | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));

  /** Opens the database for one command, runs it, prints its result, closes. */
  const run =
    <A extends unknown[]>(verb: (ctx: DomainContext, ...args: A) => Promise<unknown>, render: Render = human) =>
    async (...args: A) => {
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

  withJson(program.command('serve'))
    .description('migrate, then serve HTTP (what `npm start` runs)')
    .option('--workers <n>', 'worker processes (PostgreSQL only)', positiveInteger)
    .action(async (opts: { workers?: number }) => {
      await serveCommand(getConfig(), { workers: opts.workers, stdout: io.stdout, stderr: io.stderr });
    });

  withJson(program.command('migrate'))
    .description('apply database migrations')
    .action(run(async () => ({ ok: true }), () => 'Migrations are up to date.\n'));

  const workspace = program.command('workspace').description('workspaces');
  withJson(workspace.command('create'))
    .description('create a workspace with its upload key')
    .requiredOption('--name <name>', 'workspace name')
    .action(run((ctx, opts: { name: string }) => createWorkspace({ ctx, input: { name: opts.name } })));

  const pipeline = program.command('pipeline').description('pipelines');
  withJson(pipeline.command('create'))
    .description('create a pipeline in a workspace')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--name <name>', 'pipeline name')
    .action(
      run((ctx, opts: { workspace: string; name: string }) =>
        createPipeline({ ctx, input: { workspace: opts.workspace, name: opts.name } }),
      ),
    );

  const source = program.command('source').description('lead sources and their intake links');
  withJson(source.command('create'))
    .description('create a lead source with its intake token and hosted form')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--pipeline <pipeline>', 'pipeline id or name')
    .requiredOption('--name <name>', 'lead source name')
    .action(
      run((ctx, opts: { workspace: string; pipeline: string; name: string }) => createSource({ ctx, input: opts })),
    );
  for (const [name, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    withJson(source.command(`${name} <token>`))
      .description(`${name} a lead source's intake link and hosted form`)
      .action(run((ctx, token: string) => setSourceActive({ ctx, input: { token, active } })));
  }
  withJson(source.command('bot-check <token>'))
    .description('turn a bot check on (with a provider) or --off')
    .addOption(new Option('--provider <provider>', 'bot-check provider').choices(['turnstile', 'hcaptcha', 'recaptcha']))
    .option('--secret <secret>', 'provider secret key')
    .option('--site-key <key>', 'provider site key, shown in the hosted form')
    .option('--min-score <score>', 'reCAPTCHA v3 score threshold (0 to 1)', score)
    .option('--off', 'turn the bot check off')
    .action(
      run(
        async (
          ctx,
          token: string,
          opts: { provider?: string; secret?: string; siteKey?: string; minScore?: number; off?: boolean },
        ) => {
          if (opts.off) return configureBotCheck({ ctx, input: { token, settings: { off: true } } });
          if (!opts.provider || !opts.secret) {
            throw new AppError('invalid_request', 'Give --provider and --secret, or --off');
          }
          const view = await configureBotCheck({
            ctx,
            input: {
              token,
              settings: {
                provider: opts.provider,
                secret: opts.secret,
                ...(opts.siteKey ? { siteKey: opts.siteKey } : {}),
                ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
              },
            },
          });
          // On stderr, so --json output stays one document.
          if (lacksSiteKey(view)) io.stderr.write(`${NO_SITE_KEY_NOTE}\n`);
          return view;
        },
      ),
    );

  const key = program.command('key').description("the workspace's scan upload key");
  withJson(key.command('show'))
    .description('show the live upload key')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => showUploadKey({ ctx, input: opts })));
  withJson(key.command('regenerate'))
    .description('replace the upload key; the old one is refused at once')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => regenerateUploadKey({ ctx, input: opts })));

  const leads = program.command('leads').description('the Leads inbox');
  withJson(leads.command('list'))
    .description('leads of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--pipeline <pipeline>', 'pipeline id or name')
    .action(run((ctx, opts: { workspace: string; pipeline?: string }) => listLeads({ ctx, input: opts })));

  const quarantine = program.command('quarantine').description('honeypot catches, kept 30 days');
  withJson(quarantine.command('list'))
    .description('quarantined submissions of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => listQuarantine({ ctx, input: opts })));
  withJson(quarantine.command('restore <id>'))
    .description('turn a quarantined submission into a lead, with its original received time')
    .action(run((ctx, id: string) => restoreQuarantined({ ctx, input: { id } })));

  const scans = program.command('scans').description('the Scans inbox');
  withJson(scans.command('list'))
    .description('scan uploads of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => listScans({ ctx, input: opts })));
  withJson(scans.command('raw <id>'))
    .description('the stored request body, byte for byte')
    .action(run((ctx, scanId: string) => readScanRaw({ ctx, input: { scanId } })));
  withJson(scans.command('room <id> <index>'))
    .description("one room's exact bytes (index from 0)")
    .action(
      run((ctx, scanId: string, index: string) =>
        readScanRoom({ ctx, input: { scanId, index: nonNegativeInteger(index) } }),
      ),
    );

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
