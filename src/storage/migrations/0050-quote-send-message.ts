import type { Kysely, Migration } from 'kysely';

/**
 * `quotes.send_message`: the sender's own words to the customer, put in the email that Send queues (docs/quotes.md,
 * "Send"). Kept on the draft (Save keeps it) and with the revision once sent; never on the customer's page, the PDF or
 * in the acceptance hash. Null for none; a new revision, a copy and a new quote start without one.
 */
export function quoteSendMessage(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('quotes').addColumn('send_message', 'text').execute();
    },
  };
}
