import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';

/** What a new pipeline starts with (docs/admin-app.md). The first stage is the pipeline's Leads inbox. */
export const DEFAULT_STAGES: ReadonlyArray<{ key: string; name: string }> = [
  { key: 'inbox', name: 'Inbox' },
  { key: 'contacted', name: 'Contacted' },
  { key: 'quoted', name: 'Quoted' },
  { key: 'won', name: 'Won' },
  { key: 'lost', name: 'Lost' },
];

/** Gives a new pipeline its default stages, inside the transaction that creates it. */
export async function insertDefaultStages(
  trx: Transaction<Schema>,
  { pipelineId, now }: { pipelineId: string; now: string },
) {
  await trx
    .insertInto('stages')
    .values(
      DEFAULT_STAGES.map((s, position) => ({
        pipeline_id: pipelineId,
        key: s.key,
        name: s.name,
        position,
        created_at: now,
      })),
    )
    .execute();
}
