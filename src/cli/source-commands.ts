import { Option, type Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { configureBotCheck, lacksSiteKey, NO_SITE_KEY_NOTE } from '../domain/sources/configure-bot-check.js';
import { createSource } from '../domain/sources/create-source.js';
import { listSources } from '../domain/sources/list-sources.js';
import { setSourceActive } from '../domain/sources/set-source-active.js';
import { score, type CliKit } from './kit.js';
import { pipelineContextOf, sourceIdOf, workspaceContextOf } from './resolve.js';
import { registerSourceManagement } from './source-manage-commands.js';
import { registerSourceForm } from './source-form-commands.js';

/** All of standard input, e.g. `printf %s "$SECRET" | leadscan source bot-check … --secret-stdin`. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** `leadscan source …`. */
export function registerSourceCommands(program: Command, kit: CliKit) {
  const { run, withJson, io } = kit;
  const source = program.command('source').description('lead sources and their intake links');
  withJson(source.command('create'))
    .description('create a lead source with its intake token and hosted form')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--pipeline <pipeline>', 'pipeline id or name')
    .requiredOption('--name <name>', 'lead source name')
    .action(
      run(async (ctx, opts: { workspace: string; pipeline: string; name: string }) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return createSource({ ctx: scoped, input: { pipelineId, name: opts.name } });
      }),
    );
  withJson(source.command('list'))
    .description('list the lead sources of a workspace with tokens, URLs and lead counts')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, opts: { workspace: string }) =>
        listSources({ ctx: await workspaceContextOf(ctx, opts.workspace), input: {} }),
      ),
    );
  for (const [name, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    withJson(source.command(`${name} <token>`))
      .description(`${name} a lead source's intake link and hosted form (by id or token)`)
      .action(
        run(async (ctx, ref: string) =>
          setSourceActive({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), active } }),
        ),
      );
  }
  withJson(source.command('bot-check <token>'))
    .description('turn a bot check on (with a provider) or --off (by id or token)')
    .addOption(
      new Option('--provider <provider>', 'bot-check provider').choices(['turnstile', 'hcaptcha', 'recaptcha']),
    )
    .option('--secret <secret>', 'provider secret key (visible in ps and shell history: prefer --secret-stdin)')
    .option('--secret-stdin', 'read the provider secret key from standard input')
    .option('--site-key <key>', 'provider site key, shown in the hosted form')
    .option('--min-score <score>', 'reCAPTCHA v3 score threshold (0 to 1)', score)
    .option('--off', 'turn the bot check off')
    .action(
      run(
        async (
          ctx,
          ref: string,
          opts: {
            provider?: string;
            secret?: string;
            secretStdin?: boolean;
            siteKey?: string;
            minScore?: number;
            off?: boolean;
          },
        ) => {
          if (opts.off)
            return configureBotCheck({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), settings: { off: true } } });
          if (opts.secretStdin) {
            if (opts.secret !== undefined)
              throw new AppError('invalid_request', 'Give --secret or --secret-stdin, not both');
            opts.secret = (await readStdin()).trim();
            if (!opts.secret)
              throw new AppError('invalid_request', '--secret-stdin read no secret from standard input');
          }
          if (!opts.provider || !opts.secret) {
            throw new AppError('invalid_request', 'Give --provider and --secret (or --secret-stdin), or --off');
          }
          const view = await configureBotCheck({
            ctx,
            input: {
              sourceId: await sourceIdOf(ctx, ref),
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
  registerSourceManagement(source, kit);
  registerSourceForm(source, kit);
}
