import type { Command } from 'commander';
import { listAudit, type AuditPage } from '../domain/audit/list-audit.js';
import { runRetention, type RetentionRun } from '../domain/retention/run-retention.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';
import { table } from './render.js';
import { workspaceIdOf } from './resolve.js';

const listed: Render = ((page: AuditPage) =>
  table(page.records, [
    ['AT', (r) => r.at],
    ['WORKSPACE', (r) => r.workspaceId ?? '(server)'],
    [
      'ACTOR',
      (r) => (r.actor.kind === 'user' ? `${r.actor.label} (${r.actor.userId})` : `${r.actor.kind}:${r.actor.label}`),
    ],
    ['ACTION', (r) => r.action],
    ['TARGETS', (r) => r.targetIds.join(' ')],
    ['DETAILS', (r) => (Object.keys(r.details).length ? JSON.stringify(r.details) : '')],
  ]) + (page.next ? `More: add --after ${page.next}\n` : '')) as Render;

/** `leadscan audit list` and `leadscan retention run` (docs/cli.md). */
export function registerAuditCommands(program: Command, { run, withJson }: CliKit) {
  const audit = program.command('audit').description('the audit log: who did what, when');
  withJson(audit.command('list'))
    .description("audit records, newest first; with --workspace, that workspace's and its members' sign-ins")
    .option('--workspace <workspace>', 'workspace id or name')
    .option('--action <action>', 'one action, e.g. key.regenerated')
    .option('--since <date>', 'from this day (YYYY-MM-DD, UTC) or instant')
    .option('--until <date>', 'to this day (YYYY-MM-DD, UTC) or instant')
    .option('--limit <n>', 'records to print (default 100, at most 1000)', positiveInteger)
    .option('--after <cursor>', 'the next page: the cursor the previous page printed')
    .action(
      run(
        async (
          ctx,
          opts: { workspace?: string; action?: string; since?: string; until?: string; limit?: number; after?: string },
        ) => {
          return listAudit({
            ctx,
            input: {
              workspaceId: opts.workspace ? await workspaceIdOf(ctx, opts.workspace) : null,
              ...(opts.action ? { action: opts.action } : {}),
              ...(opts.since ? { since: opts.since } : {}),
              ...(opts.until ? { until: opts.until } : {}),
              ...(opts.after ? { after: opts.after } : {}),
              limit: opts.limit ?? 100,
            },
          });
        },
        listed,
      ),
    );

  const retention = program.command('retention').description('deleting what is older than each workspace keeps');
  withJson(retention.command('run'))
    .description("run today's retention purge now, unless a server already did it today")
    .action(
      run((ctx) => runRetention(ctx), ((r: RetentionRun) =>
        r.ran
          ? `${r.workspaces
              .map(
                (w) =>
                  `${w.workspaceId}: ${w.leads} lead(s), ${w.scans} scan(s), ${w.quarantine} quarantine entr(ies)` +
                  `${w.invoices > 0 ? `, ${w.invoices} invoice(s) past the books' keeping period` : ''} deleted`,
              )
              .join('\n')}\naudit records older than a year: ${r.auditPruned}\n`
          : 'Already run today (or running on another instance).\n') as Render),
    );
}
