import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * SQLite: the search index (0006) no longer merges its segments on its own. FTS5's automerge does its merge work
 * inside whichever transaction writes the index, in bursts of 64 pages per level (10–35 ms), so a request that
 * happened to share that transaction waited for it. The SQLite writer thread now merges in small steps of its own
 * when it has nothing else to do. If segments still pile up (a server saturated for minutes), FTS5's crisis merge
 * (16 segments on one level, the default) still bounds them. PostgreSQL has no such index. (Since 0009 the index
 * is a file of its own, kept by a thread of its own.)
 */
export function searchMergesWhenIdle(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`insert into leads_search (leads_search, rank) values ('automerge', 0)`.execute(db);
    },
  };
}
