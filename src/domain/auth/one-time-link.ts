import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { hashToken } from './secret-token.js';

/** The tables of links that work once: a password setup link and an email-change confirmation. */
export type OneTimeLinkTable = 'setup_links' | 'email_changes';

/**
 * Marks the link of `token` used, if it still is usable at `now`; false when it was used, expired or never existed.
 * The conditional UPDATE is the guard: of two tabs opening the same link at once, exactly one gets true.
 */
export async function useOneTimeLink(trx: Transaction<Schema>, table: OneTimeLinkTable, token: string, now: string): Promise<boolean> {
  const used = await trx
    .updateTable(table)
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
