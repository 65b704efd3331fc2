import type { Kysely, Migration } from 'kysely';

/**
 * A person's own email change, waiting for the confirmation link sent to the new address (docs/security.md). Like
 * setup links, only the SHA-256 of the link's token is kept; the row is used once and expires after 24 hours.
 */
export function emailChanges(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('email_changes')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('new_email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
    },
  };
}
