import { sql, type Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { formatDocumentNumber } from '../document-number.js';

/**
 * The workspace's next quote number, `Q-0001`, `Q-0002`…, taken in the transaction of the send that uses it: the
 * counter row's upsert takes its row lock (PostgreSQL) or runs under the single writer (SQLite), so concurrent sends
 * on any number of instances get consecutive numbers, and a send that fails rolls its number back with it.
 */
export async function nextQuoteNumber(trx: Transaction<Schema>, workspaceId: string): Promise<string> {
  const row = await trx
    .insertInto('quote_counters')
    .values({ workspace_id: workspaceId, last_number: 1 })
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({ last_number: sql<number>`quote_counters.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return formatQuoteNumber(Number(row.last_number));
}

export function formatQuoteNumber(n: number): string {
  return formatDocumentNumber('Q-', n);
}

/** `Q-0007`, `q-7` or `Q-0007 rev 2` as typed; undefined when it is not a number. */
export function parseQuoteNumber(ref: string): { number: string; revision?: number } | undefined {
  const match = /^q-?(\d{1,9})(?:\s*(?:rev|r)\s*(\d+))?$/i.exec(ref.trim());
  if (!match) return undefined;
  return { number: formatQuoteNumber(Number(match[1])), ...(match[2] ? { revision: Number(match[2]) } : {}) };
}
