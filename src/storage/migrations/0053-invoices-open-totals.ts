import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The outstanding and overdue totals (docs/invoices.md, "The list") count open invoices, and a sent credit note is
 * not one: its status is `sent` or `viewed` like an invoice's, but it asks for nothing. The totals' covering index
 * `invoices_workspace_due` held every row by status, credit notes too, so counting only invoices would have read each
 * row's `kind` from the table, and the two sums (all open, and overdue) read it twice and sorted it by currency.
 * `invoices_workspace_open_totals` holds only the open invoices (its condition spelled out in the totals' query, as a
 * partial index needs), by currency with what the sums read: the totals read it once, in order, and it is as small
 * as what is unpaid. `status` and `kind` are columns too: SQLite counts an index as covering only when it holds every
 * column the query names, its condition's included. It replaces `invoices_workspace_due`, which nothing else read.
 */
export function invoicesOpenTotals(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('invoices_workspace_open_totals')
        .on('invoices')
        .columns(['workspace_id', 'currency', 'due_date', 'balance', 'status', 'kind'])
        .where(sql<boolean>`status in ('sent', 'viewed', 'partly_paid') and kind <> 'credit_note'`)
        .execute();
      await db.schema.dropIndex('invoices_workspace_due').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .createIndex('invoices_workspace_due')
        .on('invoices')
        .columns(['workspace_id', 'status', 'due_date', 'currency', 'balance'])
        .execute();
      await db.schema.dropIndex('invoices_workspace_open_totals').execute();
    },
  };
}
