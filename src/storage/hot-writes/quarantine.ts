/**
 * The quarantine statements of the hot writes: a catch (honeypot, spam rule), and the pruning that keeps each source's
 * catches bounded.
 */
import type { QuarantineTable } from '../schema.js';
import type { Markers } from './sql-parts.js';

/** A quarantine entry as caught; restored_lead_id is set only when it is restored. */
export type QuarantineRow = Omit<QuarantineTable, 'restored_lead_id' | 'lead_state'>;

const COLUMNS = [
  'id',
  'workspace_id',
  'source_id',
  'reason',
  'fields',
  'received_at',
  'client_ip',
  'user_agent',
  'origin',
  'referer',
  'idempotency_key',
  'detail',
] as const satisfies ReadonlyArray<keyof QuarantineRow>;

/**
 * The catch, only while its source is active (nothing is stored for a closed link). Parameters: quarantineInsertParams.
 */
export function quarantineInsert(m: Markers): string {
  return (
    `insert into quarantine (${COLUMNS.join(', ')}, restored_lead_id) select ${m.list(COLUMNS.length)}, null ` +
    `where exists (select 1 from lead_sources where id = ${m.next()} and active = 1)`
  );
}

export function quarantineInsertParams(row: QuarantineRow): unknown[] {
  return [...COLUMNS.map((c) => row[c]), row.source_id];
}

/*
 * Pruning runs in the transaction that adds a catch, so the bound (docs/api.md: 30 days, 10,000 per source) holds at
 * every commit with no background job; the (source_id, received_at) index keeps it cheap. Three statements, run in
 * this order: what is past the cutoff goes; then the newest catch that may stay is read, and everything older than
 * it goes (ties on received_at ordered by id, a UUIDv7, so creation order).
 */

/** Parameters: source id, cutoff. */
export function quarantinePruneOld(m: Markers): string {
  return `delete from quarantine where source_id = ${m.next()} and received_at < ${m.next()}`;
}

/**
 * Parameters: source id, how many to keep less one. Returns `received_at, id` of the oldest catch that stays, if any.
 */
export function quarantineOldestKept(m: Markers): string {
  return (
    `select received_at, id from quarantine where source_id = ${m.next()} ` +
    `order by received_at desc, id desc limit 1 offset ${m.next()}`
  );
}

/** Parameters: quarantinePruneBeyondParams. */
export function quarantinePruneBeyond(m: Markers): string {
  const [source, receivedAt, sameReceivedAt, id] = [m.next(), m.next(), m.next(), m.next()];
  return (
    `delete from quarantine where source_id = ${source} ` +
    `and (received_at < ${receivedAt} or (received_at = ${sameReceivedAt} and id < ${id}))`
  );
}

export function quarantinePruneBeyondParams(
  sourceId: string,
  oldestKept: { received_at: string; id: string },
): unknown[] {
  return [sourceId, oldestKept.received_at, oldestKept.received_at, oldestKept.id];
}
