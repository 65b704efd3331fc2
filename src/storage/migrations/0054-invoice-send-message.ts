import type { Kysely, Migration } from 'kysely';

/**
 * `invoices.send_message`: the sender's own words to the customer, put in the email that Send queues (docs/invoices.md,
 * "Send"), as `quotes.send_message` is for a quote. Kept on the draft (Save keeps it) and with the invoice once sent;
 * never on the customer's page or the PDF. Null for none.
 */
export function invoiceSendMessage(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('invoices').addColumn('send_message', 'text').execute();
    },
  };
}
