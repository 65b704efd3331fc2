import type { Command } from 'commander';
import { listLeads } from '../domain/leads/list-leads.js';
import { listQuarantine } from '../domain/quarantine/list-quarantine.js';
import { restoreQuarantined } from '../domain/quarantine/restore-quarantined.js';
import type { CliKit } from './kit.js';

/** `leadscan leads …` and `leadscan quarantine …`. */
export function registerLeadsCommands(program: Command, { run, withJson }: CliKit) {
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
}
