import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The stages every pipeline starts with (docs/admin-app.md); the first is the pipeline's Leads inbox. */
const DEFAULT_STAGES = [
  { key: 'inbox', name: 'Inbox' },
  { key: 'contacted', name: 'Contacted' },
  { key: 'quoted', name: 'Quoted' },
  { key: 'won', name: 'Won' },
  { key: 'lost', name: 'Lost' },
] as const;

/**
 * Pipeline stages, stage history and "opened" marks.
 *
 * A stage is named by a key that is stable for its life (`inbox`, `contacted`, … or a slug made when an owner
 * adds one); renaming changes only its name. `leads.stage` already holds `inbox` for every lead, and that is the
 * default first stage's key, so existing leads are in Inbox without rewriting 100k rows.
 *
 * "New" (not yet opened by anyone in the workspace) is a row in `lead_unread`, added by a trigger when a lead is
 * inserted and removed when someone opens the lead or the lead is deleted. So no writer of leads (intake, restore,
 * imports) has to know about it, and a pipeline's unread count reads only its unread rows, which stay few however
 * many leads a workspace keeps.
 */
export function stages(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('stages')
        .addColumn('pipeline_id', 'text', (c) => c.notNull().references('pipelines.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stages_pk', ['pipeline_id', 'key'])
        .execute();

      const now = new Date().toISOString();
      const pipelines = await db
        .selectFrom('pipelines' as never)
        .select(sql<string>`id`.as('id'))
        .execute();
      for (const { id } of pipelines as Array<{ id: string }>) {
        await db
          .insertInto('stages' as never)
          .values(
            DEFAULT_STAGES.map((s, position) => ({
              pipeline_id: id,
              key: s.key,
              name: s.name,
              position,
              created_at: now,
            })) as never,
          )
          .execute();
      }
      // Every lead so far was stored as `inbox`; say so explicitly in case a row was written by hand.
      await sql`update leads set stage = 'inbox'
        where stage not in ('inbox', 'contacted', 'quoted', 'won', 'lost')`.execute(db);

      await db.schema
        .createTable('stage_history')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', 'text', (c) => c.notNull())
        .addColumn('from_stage', 'text', (c) => c.notNull())
        .addColumn('from_name', 'text', (c) => c.notNull())
        .addColumn('to_stage', 'text', (c) => c.notNull())
        .addColumn('to_name', 'text', (c) => c.notNull())
        // Who moved it: a signed-in user's id (null from the CLI) and a label a person reads ("cli", a name).
        .addColumn('by_user_id', 'text')
        .addColumn('by_label', 'text', (c) => c.notNull())
        .addColumn('moved_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('stage_history_lead').on('stage_history').columns(['lead_id', 'moved_at']).execute();

      await db.schema
        .createTable('lead_unread')
        .addColumn('lead_id', 'text', (c) => c.primaryKey())
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_unread_pipeline').on('lead_unread').column('pipeline_id').execute();
      // Nobody could open a lead before this release: every existing lead is new.
      await sql`insert into lead_unread (lead_id, pipeline_id) select id, pipeline_id from leads`.execute(db);
      await createUnreadTriggers(db, dialect);

      // The inbox pages newest first by (received_at, id) within a pipeline, optionally within a stage or a source;
      // each filter has an index whose order is the page order, so a page reads 50 index entries, not 100k rows.
      await db.schema
        .createIndex('leads_pipeline_received_id')
        .on('leads')
        .columns(['pipeline_id', 'received_at', 'id'])
        .execute();
      await db.schema
        .createIndex('leads_pipeline_stage_received')
        .on('leads')
        .columns(['pipeline_id', 'stage', 'received_at', 'id'])
        .execute();
      await db.schema
        .createIndex('leads_source_received')
        .on('leads')
        .columns(['source_id', 'received_at', 'id'])
        .execute();
      await db.schema.dropIndex('leads_pipeline_received').execute();

      if (dialect === 'sqlite') await createSqliteSearch(db);
    },
  };
}

/** A lead is new from its insert; deleting a lead, by whatever path, takes its mark with it. */
async function createUnreadTriggers(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect === 'sqlite') {
    await sql`create trigger leads_unread_insert after insert on leads begin
      insert into lead_unread (lead_id, pipeline_id) values (new.id, new.pipeline_id);
    end`.execute(db);
    await sql`create trigger leads_unread_delete after delete on leads begin
      delete from lead_unread where lead_id = old.id;
    end`.execute(db);
    return;
  }
  await sql`create function leads_unread_insert() returns trigger language plpgsql as $$
    begin
      insert into lead_unread (lead_id, pipeline_id) values (new.id, new.pipeline_id);
      return null;
    end $$`.execute(db);
  await sql`create function leads_unread_delete() returns trigger language plpgsql as $$
    begin
      delete from lead_unread where lead_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger leads_unread_insert after insert on leads
    for each row execute function leads_unread_insert()`.execute(db);
  await sql`create trigger leads_unread_delete after delete on leads
    for each row execute function leads_unread_delete()`.execute(db);
}

/**
 * Inbox search is a case-insensitive substring over name, email, phone and notes. PostgreSQL answers it with an
 * ILIKE scan (no extension needed); SQLite's LIKE scan takes hundreds of ms at 100k leads when few rows match, so on
 * SQLite a trigram FTS5 index answers "which leads contain this" (any 3+ characters) in well under a millisecond.
 * Triggers keep it in step with `leads`, so no writer of leads (intake, restore) has to know it exists.
 * It is keyed by lead id (a MATCH on the lead_id column), never by SQLite's implicit rowid, which VACUUM may renumber.
 */
async function createSqliteSearch(db: Kysely<unknown>) {
  await sql`create virtual table leads_search using fts5(lead_id, name, email, phone, notes,
    tokenize = 'trigram')`.execute(db);
  await sql`insert into leads_search (lead_id, name, email, phone, notes)
    select id, name, email, phone, notes from leads`.execute(db);
  await sql`create trigger leads_search_insert after insert on leads begin
    insert into leads_search (lead_id, name, email, phone, notes)
      values (new.id, new.name, new.email, new.phone, new.notes);
  end`.execute(db);
  await sql`create trigger leads_search_delete after delete on leads begin
    delete from leads_search where leads_search match 'lead_id : "' || old.id || '"' and lead_id = old.id;
  end`.execute(db);
  await sql`create trigger leads_search_update after update of id, name, email, phone, notes on leads begin
    delete from leads_search where leads_search match 'lead_id : "' || old.id || '"' and lead_id = old.id;
    insert into leads_search (lead_id, name, email, phone, notes)
      values (new.id, new.name, new.email, new.phone, new.notes);
  end`.execute(db);
}
