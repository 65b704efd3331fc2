import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';

/** The part of an account a one-time link is tied to. */
export interface Credentials {
  password_hash: string | null;
  email_key: string;
}

/**
 * What a one-time link keeps of the account it was issued for (`issued_for`): a SHA-256 of its password hash and
 * email. A password change (a new salt even for the same password), a password set through another link, or an
 * email change gives another value, so every link issued before stops working (docs/security.md). The hash adds
 * nothing to what the users table holds already. Migration 0030 writes the same formula out.
 */
export function credentialsFingerprint(user: Credentials): string {
  return crypto
    .createHash('sha256')
    .update(`leadscan credentials v1\n${user.password_hash ?? ''}\n${user.email_key}`, 'utf8')
    .digest('hex');
}

/** The account's fingerprint as it is now in the caller's transaction; null when the account is gone. */
export async function currentFingerprint(trx: Transaction<Schema>, userId: string): Promise<string | null> {
  const user = await trx
    .selectFrom('users')
    .select(['password_hash', 'email_key'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? credentialsFingerprint(user) : null;
}
