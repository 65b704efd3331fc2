import type { Kysely, Migration } from 'kysely';

/**
 * Retention (docs/operations.md, "Retention"):
 * - `workspaces.lead_retention_months` and `scan_retention_months`: null is off (the default), else 3, 6, 12, 24
 *   or 36; leads and scans received before that many months ago are deleted by the daily job.
 * - `job_claims`: one row per daily job. An instance runs the job only after claiming the row (an UPDATE whose
 *   WHERE says "not done today and not claimed by a live run"), so with several instances on one PostgreSQL exactly
 *   one runs it a day. A claim lapses after a while, so a run cut short by a crash is taken up again.
 */
export function retention(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('workspaces').addColumn('lead_retention_months', 'integer').execute();
      await db.schema.alterTable('workspaces').addColumn('scan_retention_months', 'integer').execute();
      await db.schema
        .createTable('job_claims')
        .addColumn('job', 'text', (c) => c.primaryKey())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('done_on', 'text')
        .execute();
    },
  };
}
