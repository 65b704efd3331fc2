import type { Kysely, Migration } from 'kysely';

/**
 * `scan_rooms.renamed`: 1 once a person named the room (the scan's page, `leadscan scans rename-room`). A room's
 * listed `name` is kept beside the stored bytes and never changes them: at upload its own string `name` or
 * "Room N"; once measured, a "Room N" takes the room's RoomPlan section label ("Dining room"); a person's name
 * wins over both, and the measurer leaves a renamed room alone (docs/admin-app.md, "A scan's page").
 */
export function roomNames(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('scan_rooms')
        .addColumn('renamed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('scan_rooms').dropColumn('renamed').execute();
    },
  };
}
