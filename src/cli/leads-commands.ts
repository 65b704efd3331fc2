import { once } from 'node:events';
import type { Command } from 'commander';
import { addNote } from '../domain/leads/add-note.js';
import { assignLead } from '../domain/leads/assign-lead.js';
import { AppError } from '../domain/errors.js';
import type { DomainContext, WorkspaceContext } from '../domain/context.js';
import { deleteLead } from '../domain/leads/delete-lead.js';
import { exportLeadsCsv, exportLeadsXlsx } from '../domain/leads/export-leads.js';
import type { LeadFilterInput } from '../domain/leads/lead-filters.js';
import { listLeads, type InboxLead } from '../domain/leads/list-leads.js';
import { moveLead } from '../domain/leads/move-lead.js';
import { openLead } from '../domain/leads/open-lead.js';
import { setFollowUp } from '../domain/leads/set-follow-up.js';
import { deleteQuarantined } from '../domain/quarantine/delete-quarantined.js';
import { markAsSpam } from '../domain/quarantine/mark-as-spam.js';
import { listQuarantine } from '../domain/quarantine/list-quarantine.js';
import { restoreQuarantined } from '../domain/quarantine/restore-quarantined.js';
import { addStage } from '../domain/stages/add-stage.js';
import { listStages } from '../domain/stages/list-stages.js';
import { removeStage } from '../domain/stages/remove-stage.js';
import { renameStage } from '../domain/stages/rename-stage.js';
import { reorderStages } from '../domain/stages/reorder-stages.js';
import { CLI_ACTOR } from '../domain/stages/stage-history.js';
import { listPage, positiveInteger, withPaging, type CliKit, type PageOptions } from './kit.js';
import { leadContextOf, pipelineContextOf, quarantinedContextOf, workspaceContextOf } from './resolve.js';

/** The inbox filters (docs/admin-app.md), shared by `leads list` and `leads export`. */
function withFilters(cmd: Command): Command {
  return cmd
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--pipeline <pipeline>', 'pipeline id or name')
    .option('--stage <stage>', 'stage key or name, e.g. contacted')
    .option('--source <source>', 'lead source id or name')
    .option('--bot-check <state>', 'off, passed or unverified')
    .option('--search <text>', 'substring of name, email, phone or notes (any case)')
    .option('--since <date>', 'received on or after (2026-03-01 or an ISO time)')
    .option('--until <date>', 'received on or before (2026-03-31 or an ISO time)')
    .option('--assignee <email>', "assigned to this member (email or user id), or 'none' for unassigned leads")
    .option('--follow-up-due', "follow-up date today or earlier (the workspace's time zone)")
    .option('--duplicates', 'possible duplicates only: an earlier lead (365 days) has the same email or phone');
}

/** Exactly one of a value and its flag (`leads assign ID EMAIL|--none`), else a usage error. */
function valueOrFlag<T>(value: string | undefined, flag: boolean, usage: string, toValue: (v: string) => T): T | null {
  if ((value === undefined) === !flag) throw new AppError('invalid_arguments', usage);
  return value === undefined ? null : toValue(value);
}

/** `--workspace` and `--pipeline` of the stages commands, each an id or a name. */
type PipelineRefs = { workspace: string; pipeline: string };

type FilterOptions = Omit<LeadFilterInput, 'pipelineId'> & { workspace: string; pipeline?: string };

/** The workspace's context and the filters, the pipeline (id or name) resolved to its id; a blank one is no filter. */
async function filtersOf(
  ctx: DomainContext,
  opts: FilterOptions,
): Promise<{ ctx: WorkspaceContext; input: LeadFilterInput }> {
  const { workspace, pipeline, ...rest } = opts;
  if (pipeline === undefined || pipeline.trim() === '')
    return { ctx: await workspaceContextOf(ctx, workspace), input: rest };
  const scoped = await pipelineContextOf(ctx, { workspace, pipeline: pipeline.trim() });
  return { ctx: scoped.ctx, input: { ...rest, pipelineId: scoped.pipelineId } };
}

function leadLine(lead: InboxLead): string {
  const who = [lead.name, lead.email && `<${lead.email}>`, lead.phone].filter(Boolean).join(' ');
  const work = [
    lead.assigneeEmail && `→ ${lead.assigneeEmail}`,
    lead.followUpOn && `follow up ${lead.followUpOn}`,
    lead.possibleDuplicate && 'possible duplicate',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    `${lead.id}  ${lead.receivedAt}  ${lead.isNew ? 'new ' : '    '} ${lead.stageName.padEnd(10)} ${who}  ` +
    `(${lead.sourceName})${work ? `  ${work}` : ''}\n`
  );
}

/** `leadscan leads …`, `leadscan stages …` and `leadscan quarantine …`. */
export function registerLeadsCommands(program: Command, { io, run, withJson }: CliKit) {
  const leads = program.command('leads').description('the Leads inbox');
  withJson(withFilters(leads.command('list')))
    .description('leads newest first, 50 a page; the next page cursor is printed on stderr')
    .option('--limit <n>', 'leads per page (at most 1000)', positiveInteger)
    .option('--cursor <cursor>', 'continue after the page that printed this cursor')
    .action(
      run(
        async (ctx, opts: FilterOptions & { limit?: number; cursor?: string }) => {
          const filtered = await filtersOf(ctx, opts);
          const page = await listLeads({
            ctx: filtered.ctx,
            input: { ...filtered.input, limit: opts.limit, cursor: opts.cursor },
          });
          if (page.nextCursor) io.stderr.write(`More leads: add --cursor ${page.nextCursor}\n`);
          return page.leads;
        },
        ((leads: InboxLead[]) => (leads.length === 0 ? '(none)\n' : leads.map(leadLine).join(''))) as never,
      ),
    );
  withJson(leads.command('show <id>'))
    .description('one lead with every field and its stage history (does not mark it opened)')
    .action(
      run(async (ctx, id: string) => openLead({ ctx: await leadContextOf(ctx, id), input: { id, markOpened: false } })),
    );
  withJson(leads.command('move <id>'))
    .description('move a lead to another stage of its pipeline (recorded as moved by "cli")')
    .requiredOption('--stage <stage>', 'stage key or name')
    .action(
      run(async (ctx, id: string, opts: { stage: string }) =>
        moveLead({ ctx: await leadContextOf(ctx, id), input: { id, stage: opts.stage, by: CLI_ACTOR } }),
      ),
    );
  withJson(leads.command('note <id> <text>'))
    .description('add an internal note to a lead (written by "cli"; at most 5,000 characters)')
    .action(
      run(async (ctx, id: string, text: string) =>
        addNote({ ctx: await leadContextOf(ctx, id), input: { leadId: id, text, by: CLI_ACTOR } }),
      ),
    );
  withJson(leads.command('assign <id> [email]'))
    .description('assign a lead to a member of its workspace, or to nobody with --none')
    .option('--none', 'unassign the lead')
    .action(
      run(async (ctx, id: string, email: string | undefined, opts: { none?: boolean }) => {
        const assignee = valueOrFlag(email, opts.none === true, "Give the member's email or --none, not both", (v) => ({
          email: v,
        }));
        return assignLead({ ctx: await leadContextOf(ctx, id), input: { leadId: id, assignee, by: CLI_ACTOR } });
      }),
    );
  withJson(leads.command('follow-up <id> [date]'))
    .description("set a lead's follow-up date (2026-03-31, a day in the workspace's time zone), or --clear it")
    .option('--clear', 'remove the follow-up date')
    .action(
      run(async (ctx, id: string, date: string | undefined, opts: { clear?: boolean }) => {
        const day = valueOrFlag(date, opts.clear === true, 'Give a date (2026-03-31) or --clear, not both', (v) => v);
        return setFollowUp({ ctx: await leadContextOf(ctx, id), input: { leadId: id, day, by: CLI_ACTOR } });
      }),
    );
  withJson(leads.command('spam <id>'))
    .description('mark a lead as spam: it moves to Quarantine (marked_spam), where `quarantine restore` brings it back')
    .action(
      run(async (ctx, id: string) => markAsSpam({ ctx: await leadContextOf(ctx, id), input: { id, by: CLI_ACTOR } })),
    );
  withJson(leads.command('delete <id>'))
    .description('remove a lead for good')
    .action(run(async (ctx, id: string) => deleteLead({ ctx: await leadContextOf(ctx, id), input: { id } })));
  withFilters(leads.command('export'))
    .description(
      'the filtered leads as CSV on stdout (UTF-8 with BOM): leadscan leads export --workspace W > leads.csv; ' +
        '--format xlsx > leads.xlsx for Excel',
    )
    .option('--format <format>', 'csv (the default) or xlsx (an Excel file, every cell typed)', 'csv')
    .action(
      run(async (ctx, opts: FilterOptions & { format: string }) => {
        if (opts.format !== 'csv' && opts.format !== 'xlsx')
          throw new AppError('invalid_arguments', '--format is csv or xlsx');
        const filtered = await filtersOf(ctx, opts);
        const file = opts.format === 'xlsx' ? await exportLeadsXlsx(filtered) : await exportLeadsCsv(filtered);
        for await (const chunk of file) {
          if (!io.stdout.write(chunk as Buffer)) await once(io.stdout, 'drain');
        }
        return Buffer.alloc(0);
      }),
    );

  const stages = program.command('stages').description("a pipeline's stages (the first is its Leads inbox)");
  const pipelineOpts = (cmd: Command) =>
    withJson(cmd)
      .requiredOption('--workspace <workspace>', 'workspace id or name')
      .requiredOption('--pipeline <pipeline>', 'pipeline id or name');
  pipelineOpts(stages.command('list'))
    .description('stages in order, with their lead counts')
    .action(
      run(async (ctx, opts: PipelineRefs) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return listStages({ ctx: scoped, input: { pipelineId } });
      }),
    );
  pipelineOpts(stages.command('add <name>'))
    .description('add a stage at the end')
    .action(
      run(async (ctx, name: string, opts: PipelineRefs) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return addStage({ ctx: scoped, input: { pipelineId, name } });
      }),
    );
  pipelineOpts(stages.command('rename <stage> <name>'))
    .description('rename a stage (its leads stay in it)')
    .action(
      run(async (ctx, stage: string, name: string, opts: PipelineRefs) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return renameStage({ ctx: scoped, input: { pipelineId, stage, name } });
      }),
    );
  pipelineOpts(stages.command('order <stages...>'))
    .description('put the stages in this order (keys or names); the first receives new leads')
    .action(
      run(async (ctx, order: string[], opts: PipelineRefs) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return reorderStages({ ctx: scoped, input: { pipelineId, order } });
      }),
    );
  pipelineOpts(stages.command('remove <stage>'))
    .description('remove a stage; a stage holding leads needs --move-to')
    .option('--move-to <stage>', 'where its leads go')
    .action(
      run(async (ctx, stage: string, opts: PipelineRefs & { moveTo?: string }) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, opts);
        return removeStage({ ctx: scoped, input: { pipelineId, stage, moveTo: opts.moveTo, by: CLI_ACTOR } });
      }),
    );

  const quarantine = program
    .command('quarantine')
    .description('caught submissions and leads marked as spam, kept 30 days');
  withPaging(withJson(quarantine.command('list')), 'submissions')
    .description('quarantined submissions of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, opts: PageOptions & { workspace: string }) => {
        const scoped = await workspaceContextOf(ctx, opts.workspace);
        return listPage(io, opts, (page) => listQuarantine({ ctx: scoped, input: page }));
      }),
    );
  withJson(quarantine.command('restore <id>'))
    .description('turn a quarantined submission into a lead, with its original received time')
    .action(
      run(async (ctx, id: string) => restoreQuarantined({ ctx: await quarantinedContextOf(ctx, id), input: { id } })),
    );
  withJson(quarantine.command('delete <id>'))
    .description('drop a quarantined submission for good')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, id: string, opts: { workspace: string }) =>
        deleteQuarantined({ ctx: await workspaceContextOf(ctx, opts.workspace), input: { id } }),
      ),
    );
}
