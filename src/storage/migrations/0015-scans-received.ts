import type { Kysely, Migration } from 'kysely';

/**
 * Scans by arrival across workspaces: the measuring sweep (src/jobs/scan-measurer.ts) looks only at scans that
 * arrived since its last look, a range of this index, instead of reading every scan every two seconds.
 */
export function scansReceived(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('scans_received').on('scans').column('received_at').execute();
    },
  };
}
