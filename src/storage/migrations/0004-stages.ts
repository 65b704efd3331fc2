import { sql, type Kysely, type Migration } from 'kysely';

/** The stages every pipeline starts with (CONTRACT §12); the first is the pipeline's Leads inbox. */
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
 * Opening is a row in `lead_reads` rather than a column on `leads`: the intake insert stays as it is, and the
 * unread count of a pipeline is two index-only counts (its leads minus its read leads).
 */
export const stages: Migration = {
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
        .values(DEFAULT_STAGES.map((s, position) => ({ pipeline_id: id, key: s.key, name: s.name, position, created_at: now })) as never)
        .execute();
    }
    // Every lead so far was stored as `inbox`; say so explicitly in case a row was written by hand.
    await sql`update leads set stage = 'inbox' where stage not in ('inbox', 'contacted', 'quoted', 'won', 'lost')`.execute(db);

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
      .createTable('lead_reads')
      .addColumn('lead_id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('pipeline_id', 'text', (c) => c.notNull())
      .addColumn('opened_at', 'text', (c) => c.notNull())
      .addColumn('opened_by_user_id', 'text')
      .execute();
    await db.schema.createIndex('lead_reads_pipeline').on('lead_reads').column('pipeline_id').execute();

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
  },
};
