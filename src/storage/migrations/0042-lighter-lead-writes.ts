import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Less work per stored lead, every screen's reads unchanged (docs/performance.md, "What a lead costs PostgreSQL";
 * `bench/pg-lead-costs.ts` measures each piece, `test/storage/query-plans.test.ts` pins the reads):
 * - `leads_email` (`lower(email)`) goes: no query is planned on it. A person's lookup by email reads the
 *   duplicate check's `leads_workspace_email_key` (the same address trimmed and in lower case) and compares
 *   `lower(email)` on those rows, so it finds exactly the leads it found before.
 * - `leads_pipeline_assignee_received` holds assigned leads only: a new lead is unassigned, so intake no longer
 *   writes it; "assigned to" reads it, "unassigned" reads `leads_pipeline_received_id`.
 * - `lead_unread_pipeline` goes: the unread counters are kept by triggers from the marks' own rows, and no query
 *   looks marks up by pipeline.
 * - PostgreSQL only (SQLite would have to copy `leads` to change a key):
 *   - the lead's workspace and pipeline are checked by one key, `(pipeline_id, workspace_id)` against the pipeline,
 *     instead of one each: one lookup a lead instead of two, and a lead can no longer name a workspace its pipeline
 *     is not in;
 *   - the search documents (`lead_search_pending`, `lead_search`) lose their keys to `leads`, whose checks locked
 *     the lead's row twice more (once as it is stored, once as the mover moves its document). Only the lead INSERT
 *     and the mover write documents, so none can be made for a lead that does not exist; deleting leads deletes
 *     their documents in a statement trigger, as it does their unread marks (pending first: a mover holding one
 *     has committed its move before the second delete looks).
 */
export function lighterLeadWrites(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('leads_email').execute();
      await db.schema.dropIndex('leads_pipeline_assignee_received').execute();
      await db.schema
        .createIndex('leads_pipeline_assignee_received')
        .on('leads')
        .columns(['pipeline_id', 'assignee_user_id', 'received_at', 'id'])
        .where('assignee_user_id', 'is not', null)
        .execute();
      await db.schema.dropIndex('lead_unread_pipeline').execute();
      if (dialect !== 'postgres') return;

      await sql`alter table pipelines add constraint pipelines_id_workspace unique (id, workspace_id)`.execute(db);
      await sql`alter table leads add constraint leads_pipeline_workspace_fkey foreign key (pipeline_id, workspace_id)
        references pipelines (id, workspace_id)`.execute(db);
      await sql`alter table leads drop constraint leads_workspace_id_fkey,
        drop constraint leads_pipeline_id_fkey`.execute(db);

      await sql`alter table lead_search_pending drop constraint lead_search_pending_lead_id_fkey`.execute(db);
      await sql`alter table lead_search drop constraint lead_search_lead_id_fkey`.execute(db);
      await sql`create function leads_search_delete() returns trigger language plpgsql as $$
        begin
          delete from lead_search_pending p using deleted_leads d where p.lead_id = d.id;
          delete from lead_search s using deleted_leads d where s.lead_id = d.id;
          return null;
        end $$`.execute(db);
      await sql`create trigger leads_search_delete after delete on leads referencing old table as deleted_leads
        for each statement execute function leads_search_delete()`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop trigger leads_search_delete on leads`.execute(db);
        await sql`drop function leads_search_delete()`.execute(db);
        await sql`delete from lead_search_pending p
          where not exists (select 1 from leads l where l.id = p.lead_id)`.execute(db);
        await sql`delete from lead_search s where not exists (select 1 from leads l where l.id = s.lead_id)`.execute(
          db,
        );
        await sql`alter table lead_search_pending add constraint lead_search_pending_lead_id_fkey foreign key (lead_id)
          references leads (id) on delete cascade`.execute(db);
        await sql`alter table lead_search add constraint lead_search_lead_id_fkey foreign key (lead_id)
          references leads (id) on delete cascade`.execute(db);
        await sql`alter table leads add constraint leads_workspace_id_fkey foreign key (workspace_id)
          references workspaces (id),
          add constraint leads_pipeline_id_fkey foreign key (pipeline_id) references pipelines (id)`.execute(db);
        await sql`alter table leads drop constraint leads_pipeline_workspace_fkey`.execute(db);
        await sql`alter table pipelines drop constraint pipelines_id_workspace`.execute(db);
      }
      await db.schema.createIndex('lead_unread_pipeline').on('lead_unread').column('pipeline_id').execute();
      await db.schema.dropIndex('leads_pipeline_assignee_received').execute();
      await db.schema
        .createIndex('leads_pipeline_assignee_received')
        .on('leads')
        .columns(['pipeline_id', 'assignee_user_id', 'received_at', 'id'])
        .execute();
      await db.schema
        .createIndex('leads_email')
        .on('leads')
        .expression(sql`lower(email)`)
        .execute();
    },
  };
}
