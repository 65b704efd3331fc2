import type { Kysely, Migration } from 'kysely';

/**
 * The confirmation to the person who sent a form (docs/notifications.md, "Confirmation to the sender"):
 * - `lead_sources.confirm_sender`: 1 when the source sends it; off (0) by default.
 * - `confirmation_sends`: one row per workspace, address and UTC day a confirmation was queued for. The address is
 *   kept only as a keyed hash (HMAC under APP_SECRET), and the primary key is what makes "at most one per address
 *   per day" exact when posts race, on both databases (INSERT … ON CONFLICT DO NOTHING).
 * - `confirmation_counts`: confirmations queued per source and UTC day; a conditional `sent < limit` UPDATE of the
 *   one row keeps "at most 100 per source per day" exact.
 * Rows older than yesterday are pruned with the outbox; erasing a person deletes their `confirmation_sends` rows.
 */
export function senderConfirmations(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('lead_sources')
        .addColumn('confirm_sender', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('confirmation_sends')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('address_hash', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('confirmation_sends_pk', ['workspace_id', 'address_hash', 'day'])
        .execute();
      await db.schema.createIndex('confirmation_sends_day').on('confirmation_sends').column('day').execute();
      await db.schema
        .createTable('confirmation_counts')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('sent', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('confirmation_counts_pk', ['source_id', 'day'])
        .execute();
      await db.schema.createIndex('confirmation_counts_day').on('confirmation_counts').column('day').execute();
    },
  };
}
