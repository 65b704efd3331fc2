import type { Kysely, Migration } from 'kysely';

/**
 * Indexes for scale (docs/performance.md):
 * - `quotes_workspace_status_created`: the Quotes screen's status filters (Accepted, Declined, Draft, …) read the
 *   newest quotes of one status from an index in the screen's order, instead of walking every quote of the
 *   workspace newest first and dropping the other statuses (at 100,000 quotes, a rare status read thousands).
 */
export function indexesAtScale(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('quotes_workspace_status_created')
        .on('quotes')
        .columns(['workspace_id', 'status', 'created_at', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('quotes_workspace_status_created').execute();
    },
  };
}
