import { sql, type Kysely } from 'kysely';
import type { Schema } from './schema.js';

/** Documents moved per statement: one short transaction, a few tens of milliseconds of the index's work. */
export const SEARCH_MOVE_BATCH = 2000;

/**
 * PostgreSQL (migration 0025): moves up to `batch` search documents from `lead_search_pending` into `lead_search`,
 * the table with the trigram index, in one statement, so a document is in exactly one of the two at every commit
 * and a search (which looks in both) never misses or doubles a lead. `skip locked`: several instances move at once
 * without waiting on each other or moving a row twice. Returns how many it moved.
 */
export async function moveSearchDocuments(db: Kysely<Schema>, batch = SEARCH_MOVE_BATCH): Promise<number> {
  const result = await sql`
    with taken as (
      delete from lead_search_pending where lead_id in (
        select lead_id from lead_search_pending limit ${batch} for update skip locked)
      returning lead_id, search_text)
    insert into lead_search (lead_id, search_text) select lead_id, search_text from taken
    on conflict (lead_id) do update set search_text = excluded.search_text`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Moves batches until none is left (or `stopped()` says so); returns how many it moved. */
export async function moveAllSearchDocuments(
  db: Kysely<Schema>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let moved = 0;
  for (;;) {
    const n = await moveSearchDocuments(db);
    moved += n;
    if (n < SEARCH_MOVE_BATCH || stopped()) return moved;
  }
}
