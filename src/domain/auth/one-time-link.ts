import type { Kysely, Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { Schema } from '../../storage/schema.js';
import { credentialsFingerprint } from './credentials-fingerprint.js';
import { hashToken } from './secret-token.js';

/** The tables of links that work once: a password setup link and an email-change confirmation. */
export type OneTimeLinkTable = 'setup_links' | 'email_changes';

/**
 * Whether the link of `token` can still be used at `now`: unused, unexpired, and issued for the password and email
 * its account has now (a password or email change since ends it; a newer link of the same kind deleted it already).
 * Null when it cannot, else its account's id.
 */
export async function usableLinkOwner(
  db: Kysely<Schema> | Transaction<Schema>,
  table: OneTimeLinkTable,
  token: string,
  now: string,
  /** PostgreSQL, in a write: lock the rows read, so a password or email change cannot commit between read and use. */
  lock?: DialectOps,
): Promise<string | null> {
  const query = db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.user_id`)
    .select([
      `${table}.user_id as userId`,
      `${table}.issued_for as issuedFor`,
      `${table}.used_at as usedAt`,
      `${table}.expires_at as expiresAt`,
      'users.password_hash',
      'users.email_key',
    ])
    .where(`${table}.token_hash`, '=', hashToken(token));
  const row = await (lock ? lock.lockedRead(query) : query).executeTakeFirst();
  if (!row || row.usedAt !== null || row.expiresAt <= now || row.issuedFor !== credentialsFingerprint(row)) return null;
  return row.userId;
}

/**
 * Marks the link of `token` used, if it still is usable at `now` (see `usableLinkOwner`); false when it was used,
 * expired, never existed, or its account's password or email changed since it was issued. The conditional UPDATE is
 * the guard: of two tabs opening the same link at once, exactly one gets true. The fingerprint is read and the link
 * used in the caller's write transaction, so a change that commits first ends the link.
 */
export async function useOneTimeLink(
  trx: Transaction<Schema>,
  ops: DialectOps,
  table: OneTimeLinkTable,
  token: string,
  now: string,
): Promise<boolean> {
  const userId = await usableLinkOwner(trx, table, token, now, ops);
  if (userId === null) return false;
  const used = await trx
    .updateTable(table)
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
