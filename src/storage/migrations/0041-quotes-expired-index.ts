import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `quotes_workspace_open_created`: the Quotes screen's Expired filter (a sent or viewed quote past its valid-until
 * day) reads only a workspace's open sent quotes, newest first in the screen's order, so neither database sorts nor
 * walks answered quotes and drafts; the quotes it passes over are those still valid, which the validity window keeps
 * few. Partial on the two open statuses, so the index stays the size of what awaits an answer (docs/performance.md,
 * "Quotes at scale"). The list states the same condition as literals (list-quotes.ts), which SQLite's planner needs.
 * The valid-until day is not a column: SQLite, without statistics, then prefers the wider workspace index.
 */
export function quotesExpiredIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('quotes_workspace_open_created')
        .on('quotes')
        .columns(['workspace_id', 'created_at', 'id'])
        .where(sql<boolean>`status in ('sent', 'viewed')`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('quotes_workspace_open_created').execute();
    },
  };
}
