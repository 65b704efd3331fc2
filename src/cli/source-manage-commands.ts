import type { Command } from 'commander';
import { sourceStats, type SourceStats } from '../domain/intake-log/source-stats.js';
import { deleteSource } from '../domain/sources/delete-source.js';
import { renameSource } from '../domain/sources/rename-source.js';
import {
  getSpamRules,
  updateSpamRules,
  type SpamRuleEdits,
  type SpamRulesView,
} from '../domain/sources/update-spam-rules.js';
import { requireYes } from './confirm.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';
import { deletedLine, table } from './render.js';
import { sourceContextOf, sourceIdOf } from './resolve.js';

const statsTable: Render = ((stats: SourceStats) =>
  `${stats.name} (${stats.id}), counted per UTC day:\n` +
  table(stats.days, [
    ['DAY', (d) => d.day],
    ['ACCEPTED', (d) => String(d.accepted)],
    ['QUARANTINED', (d) => String(d.quarantined)],
    ['REFUSED', (d) => String(d.refused)],
    [
      'WHY REFUSED',
      (d) =>
        Object.entries(d.refusedBy)
          .map(([code, n]) => `${code} ${n}`)
          .join(', '),
    ],
  ])) as Render;

const rulesText: Render = ((view: SpamRulesView) =>
  [
    `${view.name} (${view.sourceId}):`,
    `  blocked emails:  ${view.rules.blockedEmails.join(', ') || '-'}`,
    `  blocked domains: ${view.rules.blockedDomains.join(', ') || '-'}`,
    `  blocked words:   ${view.rules.blockedWords.join(', ') || '-'}`,
    `  allowed sites:   ${view.rules.allowedSites.join(', ') || '- (any site)'}`,
  ].join('\n')) as Render;

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface RuleOptions {
  email?: string[];
  domain?: string[];
  word?: string[];
  site?: string[];
}

function ruleOptions(command: Command): Command {
  return command
    .option('--email <email>', 'a blocked email address (repeatable)', collect)
    .option('--domain <domain>', 'a blocked email domain, its subdomains included (repeatable)', collect)
    .option('--word <word>', 'a blocked word, matched whole in the name, notes and extra fields (repeatable)', collect)
    .option('--site <host>', 'an allowed site: a host or *.example.com (repeatable)', collect);
}

function editsOf(opts: RuleOptions): SpamRuleEdits {
  return {
    blockedEmails: opts.email ?? [],
    blockedDomains: opts.domain ?? [],
    blockedWords: opts.word ?? [],
    allowedSites: opts.site ?? [],
  };
}

/**
 * `leadscan source rename|delete|stats|rules|block|unblock`: each takes the source's id (`src_…`) or its intake token.
 */
export function registerSourceManagement(source: Command, { run, withJson }: CliKit) {
  withJson(source.command('rename <source>'))
    .description('rename a lead source (by id or token); names are unique in a workspace')
    .requiredOption('--name <name>', 'the new name')
    .action(
      run(async (ctx, ref: string, opts: { name: string }) =>
        renameSource({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), name: opts.name } }),
      ),
    );
  withJson(source.command('delete <source>'))
    .description('delete a lead source (by id or token); its intake link and hosted form stop at once')
    .option('--yes', 'confirm: this cannot be undone')
    .option('--force', 'also delete its leads (deactivate instead to keep them)')
    .action(
      run(
        async (ctx, ref: string, opts: { yes?: boolean; force?: boolean }) => {
          requireYes(opts, `lead source "${ref}"`);
          return deleteSource({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), force: Boolean(opts.force) } });
        },
        ((view: Parameters<typeof deletedLine>[1]) => deletedLine('lead source', view)) as Render,
      ),
    );
  withJson(source.command('stats <source>'))
    .description('intake counts per day: accepted, quarantined, refused and why (by id or token)')
    .option('--days <n>', 'how many days back, today included', positiveInteger, 7)
    .action(
      run(
        async (ctx, ref: string, opts: { days: number }) =>
          sourceStats({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), days: opts.days } }),
        statsTable,
      ),
    );
  withJson(source.command('rules <source>'))
    .description("a source's spam rules: blocked emails, domains and words, allowed sites (by id or token)")
    .action(
      run(async (ctx, ref: string) => {
        const source = await sourceContextOf(ctx, ref);
        return getSpamRules({ ctx: source.ctx, input: { sourceId: source.sourceId } });
      }, rulesText),
    );
  withJson(ruleOptions(source.command('block <source>')))
    .description('add spam rules to a source: matching posts go to Quarantine (by id or token)')
    .action(
      run(async (ctx, ref: string, opts: RuleOptions) => {
        const source = await sourceContextOf(ctx, ref);
        return updateSpamRules({ ctx: source.ctx, input: { sourceId: source.sourceId, add: editsOf(opts) } });
      }, rulesText),
    );
  withJson(ruleOptions(source.command('unblock <source>')))
    .description("remove entries from a source's spam rules (by id or token)")
    .action(
      run(async (ctx, ref: string, opts: RuleOptions) => {
        const source = await sourceContextOf(ctx, ref);
        return updateSpamRules({ ctx: source.ctx, input: { sourceId: source.sourceId, remove: editsOf(opts) } });
      }, rulesText),
    );
}
