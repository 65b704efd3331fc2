import type { Kysely, Migration } from 'kysely';

/**
 * The books (docs/invoices.md, "The books"): `invoices_workspace_issued` lists a workspace's issued invoices and
 * credit notes by issue date in the order they were sent, so the accountant's export of a range reads its rows a
 * page at a time in that order with no sort, and retention finds the issued invoices past the books' keeping period.
 */
export function invoiceBooks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('invoices_workspace_issued')
        .on('invoices')
        .columns(['workspace_id', 'issue_date', 'sent_at', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('invoices_workspace_issued').execute();
    },
  };
}
