import type { Kysely, Migration } from 'kysely';

/**
 * Email notifications and the outbox every email leaves through:
 * - `notification_choices`: a person's choices per workspace (no row: the role's default), and where their daily
 *   summary got to.
 * - `notice_cursors` and `noticed`: which leads and scans the notifier has already seen. It reads new arrivals
 *   from the tables' own time indexes a little behind their newest time, so the intake path writes nothing extra
 *   per lead; `noticed` makes that overlap harmless (a lead is noticed once).
 * - `notification_pending`: what a person is still to be told, waiting for their next email (at most one a minute).
 * - `outbox`: every email to send, durable before it is sent and retried with backoff. Its payload is sealed with
 *   the app secret (an invitation's link is a password) and names leads and scans by id only: their fields are read
 *   when the email is sent, so a person erased in between is never mailed about.
 */
export function notifications(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('notification_choices')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('leads', 'text', (c) => c.notNull())
        .addColumn('scans', 'text', (c) => c.notNull())
        // The local day (YYYY-MM-DD, workspace zone) of the last daily summary, and the time it covered up to.
        .addColumn('digest_day', 'text')
        .addColumn('digest_through', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_choices_pk', ['workspace_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('notice_cursors')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('seen_through', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notice_cursors_pk', ['workspace_id', 'kind'])
        .execute();
      await db.schema
        .createTable('noticed')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('noticed_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('noticed_pk', ['kind', 'subject_id'])
        .execute();
      await db.schema.createIndex('noticed_at').on('noticed').column('noticed_at').execute();

      await db.schema
        .createTable('notification_pending')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('noticed_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_pending_pk', ['workspace_id', 'user_id', 'kind', 'subject_id'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text')
        .addColumn('user_id', 'text')
        // leads | digest | test | invite | password_reset | email_change
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // pending | sending | sent | failed | dropped
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'next_attempt_at']).execute();
      await db.schema
        .createIndex('outbox_person')
        .on('outbox')
        .columns(['workspace_id', 'user_id', 'created_at'])
        .execute();
    },
  };
}
