import type { Kysely, Migration } from 'kysely';

/**
 * A room is a byte range [raw_start, raw_end) of its scan's stored body instead of a second copy of those bytes:
 * an upload is stored once. Rooms stored before keep their own `raw` (and null ranges); new rooms have an empty
 * `raw`. readScanRoom reads either.
 */
export const scanRoomRanges: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('scan_rooms').addColumn('raw_start', 'integer').execute();
    await db.schema.alterTable('scan_rooms').addColumn('raw_end', 'integer').execute();
  },
};
