import { recordAudit } from '../audit/record-audit.js';
import { removeLeads } from '../workspaces/remove-contents.js';
import type { WorkspaceVerbArgs } from '../context.js';
import type { ForgetReport } from '../../storage/database.js';
import { findPersonInvoices, findPersonRows, personMatch, type PersonMatch } from './person-data.js';
import { forgetConfirmations } from '../notifications/sender-confirmation.js';
import type { InvoiceKind } from '../invoices/invoice-states.js';

export interface PersonErasure {
  workspaceId: string;
  match: PersonMatch;
  deleted: {
    leads: string[];
    quarantine: string[];
    idempotencyRecords: Array<{ scope: string; key: string }>;
    /** Their draft invoices and credit notes (never issued: not the books). */
    invoices: string[];
  };
  /** Their issued invoices and credit notes, kept as the books (their customer links ended), and why. */
  kept: KeptInvoice[];
  /** What was done so the deleted bytes cannot be read from disk (see `Database.forgetDeleted`). */
  onDisk: ForgetReport;
  /** Said with every erasure: copies made before it still hold the person. */
  backups: string;
}

/** An issued invoice or credit note an erasure keeps (docs/personal-data.md, "Erasing"). */
export interface KeptInvoice {
  kind: InvoiceKind;
  id: string;
  number: string | null;
  reason: string;
}

export const BOOKS_KEEP_IT =
  'Kept: an issued invoice or credit note is part of the books, which the law requires the business to keep ' +
  '(GDPR Art. 17(3)(b)); it is deleted once the books’ keeping period has passed. Its customer link no longer works.';

export const BACKUPS_KEEP_IT =
  'Backups made before this erasure still hold this data. Erase the person again after restoring any such backup, ' +
  'and let old backups expire on a schedule you can state (for example, 30 days).';

/**
 * Every table an erasure deletes from, directly or through its triggers and cascades (the last two, a lead's search
 * document, are PostgreSQL's only: migration 0025).
 */
const ERASED_TABLES = [
  'leads',
  'quarantine',
  'idempotency_keys',
  'stage_history',
  'lead_unread',
  'lead_notes',
  'lead_events',
  'lead_search',
  'lead_search_pending',
  // A lead's quotes go with it (foreign key): the customer's name, address and the lines are theirs too.
  'quotes',
  'quote_lines',
  'quote_sections',
  // Their quotes' PDFs and accepted copies (docs/documents.md): the frozen model and the file hold their details.
  'documents',
  // Their draft invoices and credit notes (issued ones are the books and are kept).
  'invoices',
  'invoice_lines',
  // Emails to the person (a sent quote, their copy of an acceptance, a confirmation): their address is plain text
  // there.
  'outbox',
  // The record that a confirmation went to their address today (a keyed hash of it).
  'confirmation_sends',
] as const;

/**
 * A person's request to be forgotten (docs/operations.md): deletes, in one transaction, exactly the rows `person
 * export` lists at that moment (leads, quarantine entries, their idempotency records) and their draft invoices, and
 * says which; their issued invoices and credit notes are kept as the books, their links ended, and it says why.
 */
export async function erasePerson({
  ctx,
  input,
}: WorkspaceVerbArgs<{ email?: string | undefined; phone?: string | undefined }>): Promise<PersonErasure> {
  const match = personMatch(input);
  const { deleted, kept } = await ctx.store.writer.write(async (trx) => {
    const rows = await findPersonRows(trx, { workspaceId: ctx.workspaceId, match });
    const leads = rows.leads.map((r) => r.id);
    const quarantine = rows.quarantine.map((r) => r.id);
    // Emails to the person waiting or kept in the outbox (a quote sent to them, their copy of an acceptance) carry
    // their address in plain text beside the sealed payload: they go too, whether sent yet or not.
    const quoteAddresses =
      leads.length > 0
        ? (
            await trx
              .selectFrom('quotes')
              .select('customer_email')
              .where('lead_id', 'in', leads)
              .where('customer_email', 'is not', null)
              .execute()
          ).map((r) => r.customer_email!.toLowerCase())
        : [];
    // A person found by phone may have given an email too: a confirmation went to that one.
    const leadAddresses = rows.leads.flatMap((r) => (r.email ? [r.email.trim().toLowerCase()] : []));
    const addresses = [
      ...new Set([...quoteAddresses, ...leadAddresses, ...('email' in match ? [match.email.toLowerCase()] : [])]),
    ];
    if (addresses.length > 0) {
      await trx
        .deleteFrom('outbox')
        .where('workspace_id', '=', ctx.workspaceId)
        .where((eb) => eb(eb.fn('lower', ['to_address']), 'in', addresses))
        .execute();
      await forgetConfirmations(trx, ctx, ctx.workspaceId, addresses);
    }
    // Their invoices: those of their leads, and (found by email) those addressed to them. Issued ones are the books:
    // kept, their customer link ended; drafts are deleted (their lines with them).
    const invoiceRows = await findPersonInvoices(trx, { workspaceId: ctx.workspaceId, match, leadIds: leads });
    const drafts = invoiceRows.filter((r) => r.status === 'draft').map((r) => r.id);
    const kept: KeptInvoice[] = invoiceRows
      .filter((r) => r.status !== 'draft')
      .map((r) => ({ kind: r.kind as InvoiceKind, id: r.id, number: r.number, reason: BOOKS_KEEP_IT }));
    if (drafts.length > 0) await trx.deleteFrom('invoices').where('id', 'in', drafts).execute();
    if (kept.length > 0)
      await trx
        .updateTable('invoices')
        .set({ token_hash: null, token_enc: null })
        .where(
          'id',
          'in',
          kept.map((k) => k.id),
        )
        .execute();
    if (leads.length > 0) {
      // A catch restored into an erased lead no longer points at it.
      await trx
        .updateTable('quarantine')
        .set({ restored_lead_id: null })
        .where('restored_lead_id', 'in', leads)
        .execute();
      await removeLeads(trx, 'id', leads);
    }
    if (quarantine.length > 0) await trx.deleteFrom('quarantine').where('id', 'in', quarantine).execute();
    for (const record of rows.idempotency) {
      await trx
        .deleteFrom('idempotency_keys')
        .where('scope', '=', record.scope)
        .where('key', '=', record.key)
        .execute();
    }
    // Counts only: the record must not say whom (the point of an erasure is that nothing does).
    await recordAudit(trx, ctx, {
      action: 'person.erased',
      workspaceId: ctx.workspaceId,
      details: {
        leads: leads.length,
        quarantine: quarantine.length,
        idempotencyRecords: rows.idempotency.length,
        invoicesDeleted: drafts.length,
        invoicesKept: kept.length,
      },
    });
    return {
      deleted: {
        leads,
        quarantine,
        idempotencyRecords: rows.idempotency.map(({ scope, key }) => ({ scope, key })),
        invoices: drafts,
      },
      kept,
    };
  });
  // Even when nothing matched now: a second erase is how an earlier one whose WAL was held open gets finished.
  const onDisk = await ctx.store.forgetDeleted(ERASED_TABLES);
  return { workspaceId: ctx.workspaceId, match, deleted, kept, onDisk, backups: BACKUPS_KEEP_IT };
}
