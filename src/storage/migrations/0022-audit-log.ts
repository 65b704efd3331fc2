import type { Kysely, Migration } from 'kysely';

/**
 * The audit log (docs/operations.md, "The audit log"): one append-only table of who did what, when, to which ids.
 * - `workspace_id` is null for server-wide actions (a person created on the CLI); no foreign key, so a deleted
 *   workspace's record of its deletion stays.
 * - `actor_kind` is `user` (with `actor_user_id` and the display name at the time in `actor_label`), `cli` (the OS
 *   user in `actor_label`) or `system` (the daily jobs).
 * - `target_ids` is a JSON array of ids; `details` a JSON object of counts and flags, never free text.
 *
 * The screen pages newest first by (at, id) within a workspace, the CLI across all, and the daily job prunes by `at`.
 */
export function auditLog(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text')
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'text')
        .addColumn('actor_label', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_ids', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_log_workspace_at')
        .on('audit_log')
        .columns(['workspace_id', 'at', 'id'])
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
    },
  };
}
