import type { Kysely, Migration } from 'kysely';

/**
 * The daily work on a lead (docs/admin-app.md, "A lead's page"):
 * - `leads.assignee_user_id`: the member a lead is assigned to, or null. Removing a member unassigns their leads
 *   in the same transaction; deleting the person clears it through the foreign key as well.
 * - `leads.follow_up_on`: a calendar day (`YYYY-MM-DD`), compared with today in the workspace's time zone.
 * - `lead_notes`: internal notes; the author's label is kept as written, so a note outlives its author's account.
 * - `lead_events`: assignments and follow-up changes, shown with the stage moves as the lead's history.
 *
 * The inbox filters on the two new columns within a pipeline and pages by (received_at, id), so each gets an index
 * in that order; the follow-up one is partial because most leads never get a date.
 */
export function leadWork(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('leads')
        .addColumn('assignee_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('leads').addColumn('follow_up_on', 'text').execute();
      await db.schema
        .createIndex('leads_pipeline_assignee_received')
        .on('leads')
        .columns(['pipeline_id', 'assignee_user_id', 'received_at', 'id'])
        .execute();
      await db.schema
        .createIndex('leads_pipeline_follow_up')
        .on('leads')
        .columns(['pipeline_id', 'follow_up_on', 'received_at', 'id'])
        .where('follow_up_on', 'is not', null)
        .execute();

      await db.schema
        .createTable('lead_notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_label', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_notes_lead').on('lead_notes').columns(['lead_id', 'created_at']).execute();

      await db.schema
        .createTable('lead_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        // `assigned` (value: the assignee's label, null for none) or `follow_up` (value: the day, null when cleared).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'text')
        .addColumn('by_user_id', 'text')
        .addColumn('by_label', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_events_lead').on('lead_events').columns(['lead_id', 'at']).execute();
    },
  };
}
