import { sql, type Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { formatDocumentNumber } from '../document-number.js';
import { CREDIT_NOTE_PREFIX } from '../settings/invoice-settings.js';

/** Invoices (all three kinds) share one series; credit notes count apart (docs/invoices.md, "Numbers"). */
export type NumberSeries = 'invoice' | 'credit_note';

/**
 * The workspace's next number of a series, `INV-0001` (the prefix a setting) or `CN-0001`, taken in the transaction
 * of the send that uses it: the counter row's upsert takes its row lock (PostgreSQL) or runs under the single writer
 * (SQLite), so concurrent sends on any number of instances get consecutive numbers, and a send that fails rolls its
 * number back with it. A void invoice keeps its number: the series never goes back.
 */
export async function nextInvoiceNumber(
  trx: Transaction<Schema>,
  workspaceId: string,
  series: NumberSeries,
  invoicePrefix: string,
): Promise<string> {
  const row = await trx
    .insertInto('invoice_counters')
    .values({ workspace_id: workspaceId, series, last_number: 1 })
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'series'])
        .doUpdateSet({ last_number: sql<number>`invoice_counters.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return formatDocumentNumber(series === 'credit_note' ? CREDIT_NOTE_PREFIX : invoicePrefix, Number(row.last_number));
}
