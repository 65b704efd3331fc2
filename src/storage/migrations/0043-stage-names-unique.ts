import { sql, type Kysely, type Migration } from 'kysely';
import { dedupeNames } from './0002-unique-names-intake-log.js';

/**
 * Stage names unique per pipeline, case-insensitively, in the database as well as in the verbs (docs/admin-app.md,
 * Stages): two renames or additions to one name at once could both pass the verbs' check. With the index the second
 * fails on it, runs once more (the writer's rule for a unique violation) and is answered `stage_name_taken`. Names
 * two such races already made are told apart first: the later stage in the pipeline's order gets " (2)".
 */
export function stageNamesUnique(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ pipeline_id: string; key: string; name: string; position: number }>`
        select pipeline_id, key, name, position from stages`.execute(db);
      const named = rows.map((r) => ({
        id: JSON.stringify([r.pipeline_id, r.key]),
        scope: r.pipeline_id,
        name: r.name,
        created_at: String(r.position).padStart(10, '0'),
      }));
      for (const rename of dedupeNames(named)) {
        const [pipelineId, key] = JSON.parse(rename.id) as [string, string];
        await sql`update stages set name = ${rename.to} where pipeline_id = ${pipelineId} and key = ${key}`.execute(db);
      }
      // lower() as the other names' indexes use it (0002): the verbs compare the same way.
      await sql`create unique index stages_name_unique on stages (pipeline_id, lower(name))`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('stages_name_unique').execute();
    },
  };
}
