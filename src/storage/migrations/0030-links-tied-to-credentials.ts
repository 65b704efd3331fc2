import crypto from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

/**
 * A one-time link (a set-password link, an email-change confirmation) is tied to the password and email its account
 * had when the link was issued (docs/security.md, "Who sees which link"): `issued_for` keeps a fingerprint of both
 * (domain/auth/credentials-fingerprint.ts), and a link whose account changed its password or email since no longer
 * works. Unused links of before this migration are given the fingerprint of their account as it is now, so a link in
 * flight (the first-start banner's, say) keeps working until the account changes; the formula is the one of that
 * file, written out here because a migration never changes.
 */
export function linksTiedToCredentials(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('setup_links').addColumn('issued_for', 'text').execute();
      await db.schema.alterTable('email_changes').addColumn('issued_for', 'text').execute();
      const store = db as unknown as Kysely<Tables>;
      const users = await store.selectFrom('users').select(['id', 'password_hash', 'email_key']).execute();
      for (const user of users) {
        const fingerprint = crypto
          .createHash('sha256')
          .update(`leadscan credentials v1\n${user.password_hash ?? ''}\n${user.email_key}`, 'utf8')
          .digest('hex');
        for (const table of ['setup_links', 'email_changes'] as const) {
          await store
            .updateTable(table)
            .set({ issued_for: fingerprint })
            .where('user_id', '=', user.id)
            .where('used_at', 'is', null)
            .execute();
        }
      }
    },
  };
}

interface Tables {
  users: { id: string; password_hash: string | null; email_key: string };
  setup_links: { user_id: string; used_at: string | null; issued_for: string | null };
  email_changes: { user_id: string; used_at: string | null; issued_for: string | null };
}
