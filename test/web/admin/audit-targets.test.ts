import { expect, it } from 'vitest';
import { recordAuditAlone } from '../../../src/domain/audit/record-audit.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { insertLeads } from '../../domain/leads-fixtures.js';

describeEachBackend('Audit log screen: what a record was about, by its current name', (backend) => {
  const f = useAdminFixture(backend);

  it('names leads, sources, pipelines and members as they are now, links them, and says "deleted lead" for one gone; the log stores ids only', async () => {
    const at = { workspaceId: f.home.workspaceId, pipelineId: f.home.pipelineId, sourceId: f.home.source.id };
    const [kept, gone] = await insertLeads(f.world, at, [{ name: 'Zoë Kitchen' }, { name: 'Gone Lead' }]);
    const [away] = await insertLeads(
      f.world,
      { workspaceId: f.away.workspaceId, pipelineId: f.away.pipelineId, sourceId: f.away.source.id },
      [{ name: 'Away Secret' }],
    );
    const targets = [
      kept!.id,
      gone!.id,
      away!.id,
      f.home.source.id,
      f.home.pipelineId,
      f.member.userId,
      f.home.workspaceId,
    ];
    await recordAuditAlone(f.world.ctx, { action: 'lead.moved', workspaceId: f.home.workspaceId, targetIds: targets });
    await f.world.store.db.deleteFrom('leads').where('id', '=', gone!.id).execute();
    // Renamed after the record was made: the page shows the name of now.
    await f.world.store.db.updateTable('leads').set({ name: 'Zoë Renamed' }).where('id', '=', kept!.id).execute();

    const res = await f.app.inject({
      method: 'GET',
      url: `/w/${f.home.workspaceId}/audit?action=lead.moved`,
      headers: { cookie: f.owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    const cell = /<td data-label="On" class="ids">([\s\S]*?)<\/td>/.exec(res.body)![1]!;
    const ws = `/w/${f.home.workspaceId}`;
    expect(cell).toContain(
      `<a href="${ws}/leads/${kept!.id}" title="${kept!.id}"><span class="offscreen">Lead: </span>Zoë Renamed</a>`,
    );
    expect(cell).toContain(`<span class="muted" title="${gone!.id}">deleted lead</span>`);
    // Another workspace's lead is never named here.
    expect(cell).toContain(`<span class="muted" title="${away!.id}">deleted lead</span>`);
    expect(cell).not.toContain('Away Secret');
    expect(cell).toMatch(
      new RegExp(
        `<a href="${ws}/sources/${f.home.source.id}" title="${f.home.source.id}"><span class="offscreen">Source: </span>[^<]+</a>`,
      ),
    );
    expect(cell).toMatch(
      new RegExp(
        `<a href="${ws}/pipelines/${f.home.pipelineId}/leads" title="${f.home.pipelineId}"><span class="offscreen">Pipeline: </span>[^<]+</a>`,
      ),
    );
    expect(cell).toMatch(
      new RegExp(`<span title="${f.member.userId}"><span class="offscreen">Person: </span>[^<]+</span>`),
    );
    // The workspace itself (a workspace created or renamed) by its name, linked to its settings.
    expect(cell).toContain(
      `<a href="${ws}/settings" title="${f.home.workspaceId}"><span class="offscreen">Workspace: </span>Home</a>`,
    );
    const stored = await f.world.store.db
      .selectFrom('audit_log')
      .select(['target_ids', 'details'])
      .where('action', '=', 'lead.moved')
      .execute();
    expect(JSON.stringify(stored)).not.toMatch(/Zoë|Gone Lead/);
  });
});
