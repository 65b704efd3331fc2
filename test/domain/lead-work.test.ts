import { leadCtx } from '../helpers/contexts.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addNote } from '../../src/domain/leads/add-note.js';
import { assignLead } from '../../src/domain/leads/assign-lead.js';
import { deleteLead } from '../../src/domain/leads/delete-lead.js';
import { deleteNote } from '../../src/domain/leads/delete-note.js';
import { exportPerson } from '../../src/domain/persons/export-person.js';
import { listLeads, type LeadListInput } from '../../src/domain/leads/list-leads.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { setFollowUp } from '../../src/domain/leads/set-follow-up.js';
import { removeMember } from '../../src/domain/members/remove-member.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads, minute } from './leads-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

describeEachBackend('Lead work: notes, assignee, follow-up, their filters and history', (backend) => {
  let world: TestWorld;
  let home: Seeded;
  let away: Seeded;
  let clock: TestClock;
  let at: { workspaceId: string; pipelineId: string; sourceId: string };
  let owner: { userId: string; label: string };
  let member: { userId: string; label: string };
  let stranger: { userId: string; label: string };

  beforeEach(async () => {
    // 2026-11-25 03:00 UTC: still the 24th in Toronto, already the 25th in UTC.
    clock = new TestClock(Date.UTC(2026, 10, 25, 3, 0));
    world = await createWorld(backend, { clock });
    home = await world.seed('Home');
    away = await world.seed('Away');
    at = { workspaceId: home.workspaceId, pipelineId: home.pipelineId, sourceId: home.source.id };
    const person = async (email: string, workspace: string, role: 'owner' | 'member', displayName: string) => {
      const created = await createUser({ ctx: world.ctx, input: { email, workspaceId: workspace, role, displayName } });
      return { userId: created.userId, label: displayName };
    };
    owner = await person('owner@home.example', home.workspaceId, 'owner', 'Olive Owner');
    member = await person('member@home.example', home.workspaceId, 'member', 'Mia Member');
    stranger = await person('owner@away.example', away.workspaceId, 'owner', 'Sam Stranger');
  });
  afterEach(async () => {
    await world.close();
  });

  const ids = async (input: Partial<LeadListInput>) =>
    (await listLeads({ ctx: inWorkspace(world.ctx, home.workspaceId), input: { limit: 1000, ...input } })).leads.map(
      (l) => l.id,
    );

  it('keeps notes newest first, bounded, and lets owners delete any and authors their own', async () => {
    const [lead] = await insertLeads(world, at, [{ name: 'Noted', received_at: minute(1) }]);
    const first = await addNote({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, text: 'Called, back Tuesday', by: member },
    });
    clock.advance(60_000);
    const second = await addNote({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, text: '  Line one\nLine two  ', by: CLI_ACTOR },
    });
    const detail = await openLead({
      ctx: await leadCtx(world.ctx, lead!.id),
      input: { id: lead!.id, markOpened: false },
    });
    expect(detail.internalNotes.map((n) => [n.text, n.authorLabel])).toEqual([
      ['Line one\nLine two', 'cli'],
      ['Called, back Tuesday', 'Mia Member'],
    ]);
    await expect(
      addNote({ ctx: inWorkspace(world.ctx, home.workspaceId), input: { leadId: lead!.id, text: '   ', by: member } }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    await expect(
      addNote({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { leadId: lead!.id, text: 'x'.repeat(5001), by: member },
      }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    await expect(
      addNote({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { leadId: lead!.id, text: 'nul\u0000', by: member },
      }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    expect(
      (
        await addNote({
          ctx: inWorkspace(world.ctx, home.workspaceId),
          input: { leadId: lead!.id, text: 'x'.repeat(5000), by: member },
        })
      ).text,
    ).toHaveLength(5000);
    // Another workspace's lead is not found through one's own workspace.
    await expect(
      addNote({ ctx: inWorkspace(world.ctx, away.workspaceId), input: { leadId: lead!.id, text: 'hi', by: stranger } }),
    ).rejects.toMatchObject({ code: 'lead_not_found' });

    const del = (noteId: string, who: { userId: string }, role: 'owner' | 'member', workspaceId = home.workspaceId) =>
      deleteNote({
        ctx: inWorkspace(world.ctx, workspaceId),
        input: { leadId: lead!.id, noteId, userId: who.userId, role },
      });
    await expect(del(second.id, member, 'member')).rejects.toMatchObject({ code: 'owner_only' });
    await expect(del(first.id, stranger, 'owner', away.workspaceId)).rejects.toMatchObject({ code: 'note_not_found' });
    await del(first.id, member, 'member');
    await del(second.id, owner, 'owner');
    await expect(del(second.id, owner, 'owner')).rejects.toMatchObject({ code: 'note_not_found' });
    expect(
      (await openLead({ ctx: await leadCtx(world.ctx, lead!.id), input: { id: lead!.id, markOpened: false } }))
        .internalNotes,
    ).toHaveLength(1);
    // A person's data export carries the notes on their leads.
    // As the lead INSERT stores it: the address and its key (a person's lookup reads the key's index).
    await world.store.db
      .updateTable('leads')
      .set({ email: 'noted@example.com', email_key: 'noted@example.com' })
      .where('id', '=', lead!.id)
      .execute();
    const exported = await exportPerson({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { email: 'noted@example.com' },
    });
    expect(exported.leads[0]!.internalNotes.map((n) => n.text)).toEqual(['x'.repeat(5000)]);

    // Deleting the lead takes its notes and events with it.
    await setFollowUp({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, day: '2026-12-01', by: CLI_ACTOR },
    });
    await deleteLead({ ctx: inWorkspace(world.ctx, home.workspaceId), input: { id: lead!.id } });
    expect(await world.store.db.selectFrom('lead_notes').selectAll().execute()).toEqual([]);
    expect(await world.store.db.selectFrom('lead_events').selectAll().execute()).toEqual([]);
  });

  it('assigns only to members of the lead’s workspace, by id or email, and records it', async () => {
    const [lead] = await insertLeads(world, at, [{ name: 'Job', received_at: minute(1) }]);
    const assigned = await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, assignee: { userId: member.userId }, by: owner },
    });
    expect(assigned).toMatchObject({
      changed: true,
      assignee: { userId: member.userId, email: 'member@home.example', label: 'Mia Member' },
    });
    // Again: nothing written.
    expect(
      (
        await assignLead({
          ctx: inWorkspace(world.ctx, home.workspaceId),
          input: { leadId: lead!.id, assignee: { email: 'MEMBER@home.example' }, by: CLI_ACTOR },
        })
      ).changed,
    ).toBe(false);
    // A person of another workspace, by id or by email, is not a member here.
    for (const assignee of [
      { userId: stranger.userId },
      { email: 'owner@away.example' },
      { email: 'nobody@example.com' },
    ]) {
      await expect(
        assignLead({ ctx: inWorkspace(world.ctx, home.workspaceId), input: { leadId: lead!.id, assignee, by: owner } }),
      ).rejects.toMatchObject({ code: 'member_not_found' });
    }
    // And the stranger cannot reach the lead through their own workspace.
    await expect(
      assignLead({
        ctx: inWorkspace(world.ctx, away.workspaceId),
        input: { leadId: lead!.id, assignee: { userId: stranger.userId }, by: stranger },
      }),
    ).rejects.toMatchObject({ code: 'lead_not_found' });
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, assignee: null, by: CLI_ACTOR },
    });
    const detail = await openLead({
      ctx: await leadCtx(world.ctx, lead!.id),
      input: { id: lead!.id, markOpened: false },
    });
    expect(detail.assignee).toBeNull();
    expect(detail.events.map((e) => [e.kind, e.value, e.byLabel])).toEqual([
      ['assigned', 'Mia Member', 'Olive Owner'],
      ['assigned', null, 'cli'],
    ]);
  });

  it('sets and clears a follow-up day, refusing days that do not exist', async () => {
    const [lead] = await insertLeads(world, at, [{ name: 'Later', received_at: minute(1) }]);
    await expect(
      setFollowUp({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { leadId: lead!.id, day: '2026-02-30', by: owner },
      }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    await expect(
      setFollowUp({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { leadId: lead!.id, day: 'tomorrow', by: owner },
      }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    expect(
      await setFollowUp({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { leadId: lead!.id, day: '2026-12-01', by: owner },
      }),
    ).toMatchObject({ changed: true, followUpOn: '2026-12-01' });
    expect(
      (
        await setFollowUp({
          ctx: inWorkspace(world.ctx, home.workspaceId),
          input: { leadId: lead!.id, day: '2026-12-01', by: owner },
        })
      ).changed,
    ).toBe(false);
    await setFollowUp({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: lead!.id, day: null, by: CLI_ACTOR },
    });
    await moveLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { id: lead!.id, stage: 'contacted', by: owner },
    });
    const detail = await openLead({
      ctx: await leadCtx(world.ctx, lead!.id),
      input: { id: lead!.id, markOpened: false },
    });
    expect(detail.followUpOn).toBeNull();
    expect(detail.events.map((e) => [e.kind, e.value])).toEqual([
      ['follow_up', '2026-12-01'],
      ['follow_up', null],
    ]);
    expect(detail.history.map((h) => h.toName)).toEqual(['Contacted']);
  });

  it('filters assigned to a member, unassigned, and follow-up due in the workspace’s time zone, combined with the others', async () => {
    const [mine, theirs, free, due, future] = await insertLeads(world, at, [
      { name: 'Mine', received_at: minute(1) },
      { name: 'Theirs', received_at: minute(2) },
      { name: 'Free', received_at: minute(3) },
      { name: 'Due', received_at: minute(4) },
      { name: 'Future', received_at: minute(5) },
    ]);
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: mine!.id, assignee: { userId: member.userId }, by: owner },
    });
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: theirs!.id, assignee: { userId: owner.userId }, by: owner },
    });
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: due!.id, assignee: { userId: member.userId }, by: owner },
    });
    await setFollowUp({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: due!.id, day: '2026-11-24', by: owner },
    });
    await setFollowUp({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: future!.id, day: '2026-11-25', by: owner },
    });
    await setFollowUp({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: mine!.id, day: '2026-11-30', by: owner },
    });

    expect(await ids({ assignee: member.userId })).toEqual([due!.id, mine!.id]);
    expect(await ids({ assignee: 'member@home.example', search: 'mine' })).toEqual([mine!.id]);
    expect(await ids({ assignee: 'none' })).toEqual([future!.id, free!.id]);
    // It is the 25th in UTC (the workspace's default zone): due on the 24th and the 25th.
    expect(await ids({ followUpDue: true })).toEqual([future!.id, due!.id]);
    expect(await ids({ followUpDue: true, assignee: 'none' })).toEqual([future!.id]);
    expect(
      await ids({ followUpDue: true, pipelineId: home.pipelineId, stage: 'inbox', assignee: member.userId }),
    ).toEqual([due!.id]);
    // In Toronto it is still the evening of the 24th: the 25th is not due yet.
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: home.workspaceId, timeZone: 'America/Toronto' },
    });
    expect(await ids({ followUpDue: true })).toEqual([due!.id]);
    // A person of another workspace is no member here, even as a filter.
    await expect(ids({ assignee: stranger.userId })).rejects.toMatchObject({ code: 'member_not_found' });
    expect(theirs).toBeDefined();
  });

  it('unassigns a removed member’s leads, in that workspace only, and says so in their history', async () => {
    const [a, b] = await insertLeads(world, at, [
      { name: 'A', received_at: minute(1) },
      { name: 'B', received_at: minute(2) },
    ]);
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: a!.id, assignee: { userId: member.userId }, by: owner },
    });
    await assignLead({
      ctx: inWorkspace(world.ctx, home.workspaceId),
      input: { leadId: b!.id, assignee: { userId: owner.userId }, by: owner },
    });
    await removeMember({ ctx: inWorkspace(world.ctx, home.workspaceId), input: { userId: member.userId } });
    const detail = await openLead({ ctx: await leadCtx(world.ctx, a!.id), input: { id: a!.id, markOpened: false } });
    expect(detail.assignee).toBeNull();
    expect(detail.events.at(-1)).toMatchObject({ kind: 'assigned', value: null, byLabel: 'member removed' });
    expect(
      (await openLead({ ctx: await leadCtx(world.ctx, b!.id), input: { id: b!.id, markOpened: false } })).assignee
        ?.userId,
    ).toBe(owner.userId);
    expect(await ids({ assignee: 'none' })).toEqual([a!.id]);
  });
});
