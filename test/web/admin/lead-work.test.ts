import { expect, it } from 'vitest';
import { addNote } from '../../../src/domain/leads/add-note.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { snapshot, type Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { inWorkspace } from '../../../src/domain/context.js';

const XSS = '<script>alert(1)</script>';

describeEachBackend('lead page: notes, assignee, follow-up over HTTP', (backend) => {
  const f = useAdminFixture(backend);

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string>, as: Person = f.owner) =>
    f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
    });
  const lead = (rest = '') => `/w/${f.home.workspaceId}/leads/${f.extra.homeLeadId}${rest}`;
  const inbox = (query: string, as: Person = f.owner) =>
    get(`/w/${f.home.workspaceId}/pipelines/${f.home.pipelineId}/leads${query}`, as);

  it('adds a note as the signed-in member, escaped, and keeps a refused note’s text next to its error', async () => {
    const added = await post(lead('/notes'), { text: `Called ${XSS}\nback Tuesday` }, f.member);
    expect(added.statusCode).toBe(303);
    const page = await get(lead(), f.member);
    expect(page.body).toContain('Called &lt;script&gt;alert(1)&lt;/script&gt;\nback Tuesday');
    expect(page.body).not.toContain(XSS);
    expect(page.body).toContain('member@home.example');
    const long = await post(lead('/notes'), { text: 'y'.repeat(5001) }, f.member);
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('f-text-error');
    expect(long.body).toContain('y'.repeat(5001));
  });

  it('lets a member delete their own note but not another’s; an owner deletes any', async () => {
    const own = await addNote({
      ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
      input: { leadId: f.extra.homeLeadId!, text: 'mine', by: { userId: f.member.userId, label: 'Mia' } },
    });
    const before = await snapshot(f);
    const refused = await post(lead(`/notes/${f.extra.homeNoteId}/delete`), {}, f.member);
    expect(refused.statusCode).toBe(403);
    expect(await snapshot(f)).toEqual(before);
    // The page offers Delete only where it would be allowed.
    const page = await get(lead(), f.member);
    expect(page.body).toContain(`/notes/${own.id}/delete`);
    expect(page.body).not.toContain(`/notes/${f.extra.homeNoteId}/delete`);
    expect((await post(lead(`/notes/${own.id}/delete`), {}, f.member)).statusCode).toBe(303);
    expect((await post(lead(`/notes/${f.extra.homeNoteId}/delete`), {})).statusCode).toBe(303);
    // A note of another lead through this lead's URL is not found.
    expect((await post(lead(`/notes/${f.extra.awayNoteId}/delete`), {})).statusCode).toBe(404);
  });

  it('assigns only to members of the workspace: a person of another workspace is refused and nothing changes', async () => {
    const before = await snapshot(f);
    const foreign = await post(lead('/assign'), { assignee: f.stranger.userId });
    expect(foreign.statusCode).toBe(404);
    expect(await snapshot(f)).toEqual(before);
    // The stranger, for their part, cannot assign home's lead to themselves through their workspace or home's.
    expect(
      (
        await post(
          `/w/${f.away.workspaceId}/leads/${f.extra.homeLeadId}/assign`,
          { assignee: f.stranger.userId },
          f.stranger,
        )
      ).statusCode,
    ).toBe(404);
    expect((await post(lead('/assign'), { assignee: f.stranger.userId }, f.stranger)).statusCode).toBe(404);
    expect(await snapshot(f)).toEqual(before);

    expect((await post(lead('/assign'), { assignee: f.member.userId })).statusCode).toBe(303);
    const mine = await inbox('?assigned=me', f.member);
    expect(mine.body).toContain(f.extra.homeLeadId);
    expect((await inbox('?assigned=me')).body).not.toContain(f.extra.homeLeadId);
    expect((await inbox('?assigned=none')).body).not.toContain(f.extra.homeLeadId);
    const page = await get(lead());
    expect(page.body).toMatch(/Assigned to <strong>[^<]+<\/strong> <span class="muted">by /);
    expect((await post(lead('/assign'), { assignee: '' })).statusCode).toBe(303);
    expect((await inbox('?assigned=none')).body).toContain(f.extra.homeLeadId);
  });

  it('sets a follow-up date, shows the lead under Follow-up due once the day has come, and clears it', async () => {
    expect((await post(lead('/follow-up'), { followUp: '2020-01-31' })).statusCode).toBe(303);
    const page = await get(lead());
    expect(page.body).toContain('Follow up on <strong>2020-01-31</strong>');
    expect(page.body).toContain('badge due');
    expect(page.body).toContain('Follow-up set to <strong>2020-01-31</strong>');
    expect((await inbox('?due=1')).body).toContain(f.extra.homeLeadId);
    const bad = await post(lead('/follow-up'), { followUp: '2020-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('f-followUp-error');
    expect((await post(lead('/follow-up'), { followUp: '2020-01-31', clear: '1' })).statusCode).toBe(303);
    expect((await inbox('?due=1')).body).not.toContain(f.extra.homeLeadId);
    expect((await get(lead())).body).toContain('Follow-up date cleared');
  });
});
