import type { Kysely, Migration } from 'kysely';

/**
 * People and sign-in (docs/security.md) and the hosted form's own texts (docs/api.md). Secrets are stored as hashes
 * only: password hashes (scrypt), SHA-256 of session ids and of setup-link tokens.
 */
export function people(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        // Lower-cased email: the unique index makes "compared case-insensitively" hold on both backends.
        .addColumn('email_key', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('password_changed_at', 'text')
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
        .execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('setup_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('setup_links_user').on('setup_links').column('user_id').execute();

      // One row per failed sign-in and scope (`email:…`, `ip:…`): counted over 15 minutes, shared by instances.
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('failed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_failures_scope')
        .on('sign_in_failures')
        .columns(['scope', 'failed_at'])
        .execute();

      await db.schema
        .createTable('lead_source_texts')
        .addColumn('source_id', 'text', (c) => c.primaryKey().references('lead_sources.id'))
        .addColumn('heading', 'text')
        .addColumn('introduction', 'text')
        .addColumn('thank_you', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
