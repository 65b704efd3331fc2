import type { Kysely, Migration } from 'kysely';

/**
 * Invitations that wait for the invitee's consent, and what an account has proven about its email.
 *
 * - `invitations`: inviting an email that already has an account (password set or not) no longer adds the
 *   membership or hands the inviter a link for someone else's account; it records a pending invitation that the
 *   person accepts after signing in.
 * - `users.email_proven_at`: set when the person set their password through a link nobody else saw (printed by
 *   the CLI on the server, or the first-start banner). Accounts made before this migration start unproven: they may
 *   have been set up through a link a third party held, which is exactly what this column guards against.
 * - `users.link_workspace_id`: the workspace whose inviter saw the link the password was set through. Such an
 *   account may accept that workspace's invitations (the inviter could hold the account anyway), nobody else's.
 * - `setup_links.shown_in_workspace_id`: null for links only the person or the operator saw.
 */
export function invitations(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('email_proven_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('link_workspace_id', 'text').execute();
      await db.schema.alterTable('setup_links').addColumn('shown_in_workspace_id', 'text').execute();
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('invitations_workspace_user', ['workspace_id', 'user_id'])
        .execute();
      await db.schema.createIndex('invitations_user').on('invitations').column('user_id').execute();
    },
  };
}
