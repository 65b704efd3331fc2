import type { Kysely, Migration } from 'kysely';

/**
 * `quotes.plans`: the floor plans the customer's page draws, frozen at send (docs/quotes.md, "The customer's page"):
 * JSON `{ units, rooms: [{ scanId, room, name, plan }] }`, each plan already bounded like the scan page's. A sent
 * revision never changes, so its page no longer reads the scan: a scan re-measured, detached or deleted after the
 * send leaves the page as the customer first saw it. Null for a draft (and for revisions sent before this column).
 */
export function quoteFrozenPlans(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('quotes').addColumn('plans', 'text').execute();
    },
  };
}
