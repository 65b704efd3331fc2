import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';

/** Honeypot catches are kept per source for 30 days, at most 10,000 of them, oldest dropped first (docs/api.md). */
export const QUARANTINE_RETENTION = { days: 30, perSource: 10_000 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Catches received before this instant are past retention: pruned, and never listed or restored meanwhile. */
export function quarantineCutoff(now: Date): string {
  return new Date(now.getTime() - QUARANTINE_RETENTION.days * DAY_MS).toISOString();
}

/**
 * Drops a source's quarantine rows that are past retention. Runs inside the transaction that adds a row, so the
 * bound holds at every commit and no background job is needed; the (source_id, received_at) index keeps it cheap.
 */
export async function pruneQuarantine(
  trx: Transaction<Schema>,
  { sourceId, now, keep = QUARANTINE_RETENTION.perSource }: { sourceId: string; now: Date; keep?: number },
): Promise<void> {
  await trx
    .deleteFrom('quarantine')
    .where('source_id', '=', sourceId)
    .where('received_at', '<', quarantineCutoff(now))
    .execute();

  // The newest row that may stay; everything older than it goes. Ties on received_at are ordered by id
  // (UUIDv7, so creation order).
  const oldestKept = await trx
    .selectFrom('quarantine')
    .select(['received_at', 'id'])
    .where('source_id', '=', sourceId)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await trx
    .deleteFrom('quarantine')
    .where('source_id', '=', sourceId)
    .where((eb) =>
      eb.or([
        eb('received_at', '<', oldestKept.received_at),
        eb.and([eb('received_at', '=', oldestKept.received_at), eb('id', '<', oldestKept.id)]),
      ]),
    )
    .execute();
}
