import { Option, type Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { configureBotCheck, lacksSiteKey, NO_SITE_KEY_NOTE } from '../domain/sources/configure-bot-check.js';
import { createSource } from '../domain/sources/create-source.js';
import { listSources } from '../domain/sources/list-sources.js';
import { setSourceActive } from '../domain/sources/set-source-active.js';
import { score, type CliKit } from './kit.js';

/** `leadscan source …`. */
export function registerSourceCommands(program: Command, { run, withJson, io }: CliKit) {
  const source = program.command('source').description('lead sources and their intake links');
  withJson(source.command('create'))
    .description('create a lead source with its intake token and hosted form')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--pipeline <pipeline>', 'pipeline id or name')
    .requiredOption('--name <name>', 'lead source name')
    .action(
      run((ctx, opts: { workspace: string; pipeline: string; name: string }) => createSource({ ctx, input: opts })),
    );
  withJson(source.command('list'))
    .description('list the lead sources of a workspace with tokens, URLs and lead counts')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => listSources({ ctx, input: opts })));
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
}
