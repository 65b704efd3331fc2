import type { Command } from 'commander';
import { createPipeline } from '../domain/pipelines/create-pipeline.js';
import { deletePipeline } from '../domain/pipelines/delete-pipeline.js';
import { listPipelines } from '../domain/pipelines/list-pipelines.js';
import { renamePipeline } from '../domain/pipelines/rename-pipeline.js';
import { createWorkspace } from '../domain/workspaces/create-workspace.js';
import { deleteWorkspace } from '../domain/workspaces/delete-workspace.js';
import { listWorkspaces } from '../domain/workspaces/list-workspaces.js';
import { renameWorkspace } from '../domain/workspaces/rename-workspace.js';
import { updateWorkspaceSettings } from '../domain/settings/update-workspace-settings.js';
import type { WorkspaceSettings } from '../domain/settings/workspace-settings.js';
import type { TaxChange, TaxNumberChange } from '../domain/settings/quote-settings.js';
import { reminderDaysText } from '../domain/settings/follow-up-settings.js';
import { AppError } from '../domain/errors.js';
import { rateText } from '../domain/money.js';
import { requireYes } from './confirm.js';
import type { CliKit, Render } from './kit.js';
import { deletedLine, table } from './render.js';
import { pipelineContextOf, workspaceContextOf, workspaceIdOf } from './resolve.js';

type Row = { id: string; name: string; createdAt: string };
const listed: Render = ((rows: Row[]) =>
  table(rows, [
    ['ID', (r) => r.id],
    ['NAME', (r) => r.name],
    ['CREATED', (r) => r.createdAt],
  ])) as Render;

interface SettingsOptions {
  name?: string;
  timeZone?: string;
  units?: string;
  leadRetention?: string;
  scanRetention?: string;
  currency?: string;
  locale?: string;
  tax: string[];
  quoteValidDays?: string;
  quoteTerms?: string;
  businessAddress?: string;
  businessPhone?: string;
  businessEmail?: string;
  taxNumber: string[];
  followUpDays?: string;
  customerReminders?: string;
  invoiceReminders?: string;
  invoicePrefix?: string;
  paymentTerms?: string;
  paymentInstructions?: string;
  booksYears?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function splitPair(value: string, flag: string): [string, string] {
  const at = value.indexOf('=');
  if (at <= 0) throw new AppError('invalid_arguments', `${flag} takes NAME=VALUE, not "${value.slice(0, 60)}"`);
  return [value.slice(0, at), value.slice(at + 1)];
}

/** `GST=5`, `Eco=2:default-off`, `GST=off`. */
function taxChange(value: string): TaxChange {
  const [name, rest] = splitPair(value, '--tax');
  const [rate, flag] = rest.split(':');
  if (flag !== undefined && flag !== 'default-off' && flag !== 'default-on') {
    throw new AppError(
      'invalid_arguments',
      `--tax takes NAME=RATE, NAME=RATE:default-off or NAME=off, not "${value.slice(0, 60)}"`,
    );
  }
  return { name, rate: rate!, ...(flag !== undefined ? { onByDefault: flag === 'default-on' } : {}) };
}

function taxNumberChange(value: string): TaxNumberChange {
  const [name, number] = splitPair(value, '--tax-number');
  return { name, value: number };
}

function settingsText(s: WorkspaceSettings): string {
  const taxes =
    s.taxes.map((t) => `${t.name} ${rateText(t.rate)} %${t.onByDefault ? '' : ' (off by default)'}`).join(', ') ||
    'none';
  return (
    `${s.name} (${s.workspaceId})\n  time zone: ${s.timeZone}\n  units:     ${s.units}\n` +
    `  leads kept: ${s.leadRetentionMonths ? `${s.leadRetentionMonths} months` : 'always'}\n` +
    `  scans kept: ${s.scanRetentionMonths ? `${s.scanRetentionMonths} months` : 'always'}\n` +
    `  currency:  ${s.currency}\n  locale:    ${s.locale}\n  taxes:     ${taxes}\n` +
    `  quotes valid: ${s.quoteValidDays} days\n` +
    (s.quoteTerms ? `  quote terms: ${s.quoteTerms.replace(/\n/g, ' ')}\n` : '') +
    (s.businessAddress ? `  address:   ${s.businessAddress.replace(/\n/g, ', ')}\n` : '') +
    (s.businessPhone ? `  phone:     ${s.businessPhone}\n` : '') +
    (s.businessEmail ? `  email:     ${s.businessEmail}\n` : '') +
    s.taxNumbers.map((n) => `  ${n.name}: ${n.value}\n`).join('') +
    `  follow up after: ${s.followUpDays === null ? 'off' : `${s.followUpDays} days`}\n` +
    `  customer reminders: ${reminderDaysText(s.customerReminderDays)}\n` +
    `  invoice reminders: ${reminderDaysText(s.invoiceReminderDays)}\n` +
    `  invoice numbers: ${s.invoicePrefix}0001, …; payment terms: ${s.paymentTermsDays} days\n` +
    (s.paymentInstructions ? `  payment instructions: ${s.paymentInstructions.replace(/\n/g, ' ')}\n` : '') +
    `  books kept: ${s.booksYears} years\n`
  );
}

/** `leadscan workspace …` and `leadscan pipeline …`. */
export function registerWorkspaceCommands(program: Command, { run, withJson }: CliKit) {
  const workspace = program.command('workspace').description('workspaces');
  withJson(workspace.command('create'))
    .description('create a workspace with its upload key')
    .requiredOption('--name <name>', 'workspace name')
    .action(run((ctx, opts: { name: string }) => createWorkspace({ ctx, input: { name: opts.name } })));
  withJson(workspace.command('list'))
    .description('every workspace with its id')
    .action(run((ctx) => listWorkspaces({ ctx, input: {} }), listed));
  withJson(workspace.command('rename <workspace>'))
    .description('rename a workspace (by id or name); names are unique, case-insensitively')
    .requiredOption('--name <name>', 'the new name')
    .action(
      run(async (ctx, ref: string, opts: { name: string }) =>
        renameWorkspace({ ctx: await workspaceContextOf(ctx, ref), input: { name: opts.name } }),
      ),
    );
  withJson(workspace.command('settings <workspace>'))
    .description("show a workspace's settings, or change them with the options")
    .option('--name <name>', 'rename the workspace')
    .option(
      '--time-zone <zone>',
      'IANA time zone for the times in emails and the daily summary at 08:00, e.g. America/Toronto',
    )
    .option('--units <units>', 'metric (m, m²) or imperial (ft-in, ft²) for scan measurements')
    .option('--lead-retention <months>', 'delete leads older than this: off, 3, 6, 12, 24 or 36 (months)')
    .option('--scan-retention <months>', 'delete scans older than this: off, 3, 6, 12, 24 or 36 (months)')
    .option('--currency <code>', 'ISO 4217 currency of new quotes, e.g. USD, CAD, EUR (sent quotes keep theirs)')
    .option('--locale <tag>', 'BCP 47 locale numbers and dates are shown in, e.g. en-US, fr-CA')
    .option(
      '--tax <name=rate>',
      'add or change a tax, e.g. GST=5 or QST=9.975 (on new lines by default; NAME=RATE:default-off for not); ' +
        'NAME=off removes it; repeatable',
      collect,
      [],
    )
    .option('--quote-valid-days <n>', 'days a new quote is valid for (default 30)')
    .option('--quote-terms <text>', 'the terms new quotes start with ("" clears)')
    .option('--business-address <text>', 'the business address printed on quotes ("" clears)')
    .option('--business-phone <text>', 'the business phone printed on quotes ("" clears)')
    .option('--business-email <email>', 'the business email printed on quotes ("" clears)')
    .option(
      '--tax-number <name=value>',
      'a tax registration number printed on quotes, e.g. "GST/HST=123456789 RT0001"; NAME= removes it; repeatable',
      collect,
      [],
    )
    .option(
      '--follow-up-days <days>',
      'remind the sender when a sent quote has no answer after this many days (default 3), or off',
    )
    .option(
      '--customer-reminders <days>',
      'remind the customer with the same link this many days after the send, up to two, e.g. 3,7; ' +
        'off (the default) for none',
    )
    .option(
      '--invoice-reminders <days>',
      'remind the customer of an unpaid invoice this many days after its due date, up to three, e.g. 7,14,30; ' +
        'off (the default)',
    )
    .option('--invoice-prefix <prefix>', 'what invoice numbers start with (default INV-); credit notes are CN-')
    .option('--payment-terms <days>', "days from an invoice's date to its due date, 0 to 365 (default 14)")
    .option(
      '--payment-instructions <text>',
      'printed on every invoice, e.g. "Bank transfer to …" (up to 1,000 characters; "" clears)',
    )
    .option('--books-years <years>', 'years issued invoices are kept (default 10)')
    .action(
      run(async (ctx, ref: string, opts: SettingsOptions) => {
        const { tax, taxNumber, ...rest } = opts;
        return updateWorkspaceSettings({
          ctx,
          input: {
            workspaceId: await workspaceIdOf(ctx, ref),
            ...rest,
            ...(tax.length > 0 ? { taxes: tax.map(taxChange) } : {}),
            ...(taxNumber.length > 0 ? { taxNumbers: taxNumber.map(taxNumberChange) } : {}),
          },
        });
      }, settingsText as Render),
    );
  withJson(workspace.command('delete <workspace>'))
    .description('delete a workspace with its pipelines, sources and upload key')
    .option('--yes', 'confirm: this cannot be undone')
    .option('--force', 'also delete its leads and scans')
    .action(
      run(
        async (ctx, ref: string, opts: { yes?: boolean; force?: boolean }) => {
          requireYes(opts, `workspace "${ref}"`);
          return deleteWorkspace({
            ctx,
            input: { workspaceId: await workspaceIdOf(ctx, ref), force: Boolean(opts.force) },
          });
        },
        ((view: Parameters<typeof deletedLine>[1]) => deletedLine('workspace', view)) as Render,
      ),
    );

  const pipeline = program.command('pipeline').description('pipelines');
  withJson(pipeline.command('create'))
    .description('create a pipeline in a workspace')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--name <name>', 'pipeline name')
    .action(
      run(async (ctx, opts: { workspace: string; name: string }) =>
        createPipeline({ ctx: await workspaceContextOf(ctx, opts.workspace), input: { name: opts.name } }),
      ),
    );
  withJson(pipeline.command('list'))
    .description("a workspace's pipelines with their ids")
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(
        async (ctx, opts: { workspace: string }) =>
          listPipelines({ ctx: await workspaceContextOf(ctx, opts.workspace), input: {} }),
        listed,
      ),
    );
  withJson(pipeline.command('rename <pipeline>'))
    .description('rename a pipeline (by id or name); names are unique in a workspace')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--name <name>', 'the new name')
    .action(
      run(async (ctx, ref: string, opts: { workspace: string; name: string }) => {
        const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, { workspace: opts.workspace, pipeline: ref });
        return renamePipeline({ ctx: scoped, input: { pipelineId, name: opts.name } });
      }),
    );
  withJson(pipeline.command('delete <pipeline>'))
    .description('delete a pipeline with its lead sources')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--yes', 'confirm: this cannot be undone')
    .option('--force', 'also delete its leads')
    .action(
      run(
        async (ctx, ref: string, opts: { workspace: string; yes?: boolean; force?: boolean }) => {
          requireYes(opts, `pipeline "${ref}"`);
          const { ctx: scoped, pipelineId } = await pipelineContextOf(ctx, {
            workspace: opts.workspace,
            pipeline: ref,
          });
          return deletePipeline({ ctx: scoped, input: { pipelineId, force: Boolean(opts.force) } });
        },
        ((view: Parameters<typeof deletedLine>[1]) => deletedLine('pipeline', view)) as Render,
      ),
    );
}
