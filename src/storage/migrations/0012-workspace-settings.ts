import type { Kysely, Migration } from 'kysely';

/**
 * Workspace settings: the time zone times are written in (exports, emails) and the units measurements are shown
 * in. Figures are always stored in metres; only their display follows `units`.
 */
export function workspaceSettings(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('workspaces')
        .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('units', 'text', (c) => c.notNull().defaultTo('metric'))
        .execute();
    },
  };
}
