import type { Command } from 'commander';
import type { DomainContext } from '../domain/context.js';
import { erasePerson, type PersonErasure } from '../domain/persons/erase-person.js';
import { exportPerson } from '../domain/persons/export-person.js';
import { matchedContact } from '../domain/persons/person-data.js';
import { requireYes } from './confirm.js';
import type { CliKit, Render } from './kit.js';
import { workspaceContextOf } from './resolve.js';

type PersonOpts = { workspace: string; email?: string; phone?: string; yes?: boolean };

async function personOf(ctx: DomainContext, opts: PersonOpts) {
  return { ctx: await workspaceContextOf(ctx, opts.workspace), input: { email: opts.email, phone: opts.phone } };
}

/** An export is a data document either way: JSON, with or without --json. */
const asJson: Render = ((value: unknown) => `${JSON.stringify(value, null, 2)}\n`) as Render;

const erased: Render = ((result: PersonErasure) => {
  const { leads, quarantine, idempotencyRecords } = result.deleted;
  const who = matchedContact(result.match);
  const ids = [...leads, ...quarantine, ...idempotencyRecords.map((r) => `${r.scope} ${r.key}`)];
  return (
    `Erased ${leads.length} lead(s), ` +
    `${quarantine.length} quarantine entr${quarantine.length === 1 ? 'y' : 'ies'} and ` +
    `${idempotencyRecords.length} idempotency record(s) of ${who} in workspace ${result.workspaceId}.\n` +
    ids.map((id) => `  ${id}\n`).join('') +
    (result.deleted.invoices.length > 0 ? `Deleted ${result.deleted.invoices.length} draft invoice(s).\n` : '') +
    result.kept.map((k) => `Kept ${k.number ?? k.id} (${k.kind}): ${k.reason}\n`).join('') +
    (result.onDisk.walTruncated === false
      ? 'The SQLite WAL could not be emptied now (a long read held it open); ' +
        'run this erase again in a minute to finish.\n'
      : '') +
    (result.onDisk.olderTransactionsOpen
      ? 'PostgreSQL could not clean every erased row version now (a long transaction held it open); ' +
        'run this erase again in a minute to finish.\n'
      : '') +
    `${result.backups}\n`
  );
}) as Render;

/** `leadscan person export|erase`: a person's request to see or erase their data (docs/operations.md). */
export function registerPersonCommands(program: Command, { run, withJson }: CliKit) {
  const person = program.command('person').description("a person's data: export it, or erase it");
  withJson(person.command('export'))
    .description('print every lead and quarantine entry of the workspace with this email or phone')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--email <email>', 'the email, compared case-insensitively')
    .option('--phone <phone>', 'the phone number, compared by its digits')
    .action(run(async (ctx, opts: PersonOpts) => exportPerson(await personOf(ctx, opts)), asJson));
  withJson(person.command('erase'))
    .description('delete what `person export` lists (leads, quarantine entries, their idempotency records)')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--email <email>', 'the email, compared case-insensitively')
    .option('--phone <phone>', 'the phone number, compared by its digits')
    .option('--yes', 'confirm: this cannot be undone')
    .action(
      run(async (ctx, opts: PersonOpts) => {
        requireYes(opts, `the data of ${opts.email ?? opts.phone ?? 'this person'}`);
        return erasePerson(await personOf(ctx, opts));
      }, erased),
    );
}
