import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { describeEachBackend } from '../helpers/backends.js';
import { leadRow } from '../helpers/hot-rows.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/**
 * PostgreSQL checks a lead's pipeline and workspace with one key, `(pipeline_id, workspace_id)` against the
 * pipeline (migration 0042): what the two keys it replaced refused is still refused, and a lead can no longer name
 * a workspace its pipeline is not in. SQLite keeps its separate keys (changing them would copy `leads`).
 */
describeEachBackend('the keys of a lead', (backend) => {
  let world: TestWorld;
  let acme: Seeded;
  let other: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    acme = await world.seed('Acme');
    other = await world.seed('Other');
  });
  afterAll(async () => {
    await world.close();
  });

  const insertLead = (workspaceId: string, pipelineId: string) => {
    const row = leadRow({ id: acme.source.id, pipeline_id: pipelineId }, 'Ada');
    return world.store.db
      .insertInto('leads')
      .values({ ...row, workspace_id: workspaceId, stage: 'inbox', restored_from: null })
      .execute();
  };

  it('a lead in its own pipeline and workspace is stored; one naming a missing pipeline or workspace is refused', async () => {
    await insertLead(acme.workspaceId, acme.pipelineId);
    await expect(insertLead(acme.workspaceId, newId('pl'))).rejects.toThrow(/foreign key/i);
    await expect(insertLead(newId('ws'), acme.pipelineId)).rejects.toThrow(/foreign key/i);
  });

  if (backend === 'postgres') {
    it("a lead naming another workspace than its pipeline's is refused", async () => {
      await expect(insertLead(other.workspaceId, acme.pipelineId)).rejects.toThrow(/leads_pipeline_workspace_fkey/);
    });
  }

  it('a pipeline with leads cannot be deleted from under them', async () => {
    await expect(world.store.db.deleteFrom('pipelines').where('id', '=', acme.pipelineId).execute()).rejects.toThrow(
      /foreign key/i,
    );
  });
});
