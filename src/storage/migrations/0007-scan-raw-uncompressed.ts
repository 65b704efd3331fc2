import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL: a scan's raw body is stored out of line and uncompressed (STORAGE EXTERNAL). Bodies are mostly
 * encoded mesh data that pglz does not shrink, yet it spent ~24 ms of server CPU per 1 MB upload trying, inside
 * the upload's transaction, and that capped uploads at a fraction of the disk's speed. Uncompressed out-of-line
 * values also let `substr(raw, …)` (a room's byte range) read only the chunks it needs. Applies to rows written
 * from now on; older rows keep their storage. SQLite has no such setting.
 */
export function scanRawUncompressed(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`alter table scans alter column raw set storage external`.execute(db);
    },
  };
}
