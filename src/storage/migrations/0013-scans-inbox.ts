import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The Scans inbox and its figures:
 * - `scan_unread`: a scan nobody in the workspace has opened yet ("New"), kept by triggers on `scans` like the
 *   leads' marks, so the upload path does not have to know about it. Existing scans start as opened: they were
 *   listed long before "New" existed.
 * - `scans.lead_id`: the lead (the job) a scan belongs to. Deleting a lead by any path (delete, erase, retention)
 *   sets it back to null through the foreign key, so the scan stays and only the link goes.
 * - `scan_measurements`: figures read from a scan's rooms, derived data kept beside the bytes (which never change).
 *   `version` is the reader's version: a newer reader recomputes older rows.
 */
export function scansInbox(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('scan_unread')
        .addColumn('scan_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('scan_unread_workspace').on('scan_unread').column('workspace_id').execute();
      if (dialect === 'sqlite') {
        await sql`create trigger scans_unread_insert after insert on scans begin
          insert into scan_unread (scan_id, workspace_id) values (new.id, new.workspace_id);
        end`.execute(db);
        await sql`create trigger scans_unread_delete after delete on scans begin
          delete from scan_unread where scan_id = old.id;
        end`.execute(db);
      } else {
        await sql`create function scans_unread_insert() returns trigger language plpgsql as $$
          begin
            insert into scan_unread (scan_id, workspace_id) values (new.id, new.workspace_id);
            return null;
          end $$`.execute(db);
        await sql`create function scans_unread_delete() returns trigger language plpgsql as $$
          begin
            delete from scan_unread where scan_id = old.id;
            return null;
          end $$`.execute(db);
        await sql`create trigger scans_unread_insert after insert on scans
          for each row execute function scans_unread_insert()`.execute(db);
        await sql`create trigger scans_unread_delete after delete on scans
          for each row execute function scans_unread_delete()`.execute(db);
      }

      await db.schema
        .alterTable('scans')
        .addColumn('lead_id', 'text', (c) => c.references('leads.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('scans_lead').on('scans').column('lead_id').execute();

      await db.schema
        .createTable('scan_measurements')
        .addColumn('scan_id', 'text', (c) => c.primaryKey().references('scans.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('computed_at', 'text', (c) => c.notNull())
        // Square metres; null when no room of the scan gave a floor area.
        .addColumn('floor_area', 'real')
        .addColumn('rooms_recognized', 'integer', (c) => c.notNull())
        // The per-room figures and plan geometry as JSON (metres), what the scan's page and the CSV show.
        .addColumn('rooms', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
