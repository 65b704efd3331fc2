import { expect, it } from 'vitest';
import { markAsSpam } from '../../../src/domain/quarantine/mark-as-spam.js';
import { CLI_ACTOR } from '../../../src/domain/stages/stage-history.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { insertLeads, minute } from '../../domain/leads-fixtures.js';
import { inWorkspace } from '../../../src/domain/context.js';

// The same form sent several times at once (a double click, a retrying browser): each request gets the domain's own
// answer, never a 500. On PostgreSQL the sends run in parallel transactions that all check first, then insert: the
// unique index refuses all but one, and the writer runs the others again, whose check then answers
// (commit-batcher.ts `failed`).
const AT_ONCE = 6;

describeEachBackend('the same admin form sent several times at once', (backend) => {
  const f = useAdminFixture(backend);

  const postAll = (url: string, fields: Record<string, string>) =>
    Promise.all(
      Array.from({ length: AT_ONCE }, () =>
        f.app.inject({
          method: 'POST',
          url,
          headers: { cookie: f.owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ _csrf: f.owner.csrf, ...fields }).toString(),
        }),
      ),
    );
  const statuses = (replies: Array<{ statusCode: number }>) => replies.map((r) => r.statusCode).sort();

  it('Restore of one lead marked as spam: every press lands on the lead, which exists once', async () => {
    for (let round = 1; round <= 3; round += 1) {
      const ws = f.home.workspaceId;
      const [lead] = await insertLeads(
        f.world,
        { workspaceId: ws, pipelineId: f.home.pipelineId, sourceId: f.home.source.id },
        [{ name: `Marked ${round}`, received_at: minute(round) }],
      );
      const { quarantineId } = await markAsSpam({
        ctx: inWorkspace(f.world.ctx, ws),
        input: { id: lead!.id, by: CLI_ACTOR },
      });
      const replies = await postAll(`/w/${ws}/quarantine/${quarantineId}/restore`, {});
      expect(statuses(replies)).toEqual(Array(AT_ONCE).fill(303));
      for (const reply of replies)
        expect(reply.headers.location).toMatch(new RegExp(`^/w/${ws}/leads/${lead!.id}\\?notice=(already-)?restored$`));
      expect(replies.filter((r) => r.headers.location?.endsWith('notice=restored'))).toHaveLength(1);
      const stored = await f.world.store.db.selectFrom('leads').select('id').where('id', '=', lead!.id).execute();
      expect(stored).toHaveLength(1);
      const entry = await f.world.store.db
        .selectFrom('quarantine')
        .select('restored_lead_id')
        .where('id', '=', quarantineId)
        .executeTakeFirstOrThrow();
      expect(entry.restored_lead_id).toBe(lead!.id);
    }
  });

  it('Add stage with one name: one is added, the others answer 409 with the error next to the name', async () => {
    const base = `/w/${f.home.workspaceId}/pipelines/${f.home.pipelineId}/stages`;
    for (const name of ['Site survey', 'Quote sent', 'On hold']) {
      const replies = await postAll(base, { name });
      expect(statuses(replies)).toEqual([303, ...Array(AT_ONCE - 1).fill(409)]);
      for (const taken of replies.filter((r) => r.statusCode === 409)) {
        expect(taken.body).toMatch(
          new RegExp(`id="f-new-stage-error">This pipeline already has a stage named &quot;${name}&quot;`),
        );
        expect(taken.body).toMatch(new RegExp(`id="f-new-stage"[^>]*aria-invalid="true"[^>]*value="${name}"`));
      }
      const stages = await f.world.store.db
        .selectFrom('stages')
        .select('key')
        .where('pipeline_id', '=', f.home.pipelineId)
        .where('name', '=', name)
        .execute();
      expect(stages).toHaveLength(1);
    }
  });

  it('New source with one name: one is created, the others answer 409 with the error next to the name', async () => {
    const ws = f.home.workspaceId;
    for (const name of ['Spring flyer', 'Trade show', 'Radio ad']) {
      const replies = await postAll(`/w/${ws}/sources`, { name, pipeline: f.home.pipelineId });
      expect(statuses(replies)).toEqual([303, ...Array(AT_ONCE - 1).fill(409)]);
      for (const taken of replies.filter((r) => r.statusCode === 409)) {
        expect(taken.body).toMatch(
          new RegExp(`id="f-name-error">A lead source named &quot;${name}&quot; already exists in this workspace`),
        );
      }
      const sources = await f.world.store.db
        .selectFrom('lead_sources')
        .select('id')
        .where('workspace_id', '=', ws)
        .where('name', '=', name)
        .execute();
      expect(sources).toHaveLength(1);
    }
  });
});
