import { afterEach, beforeEach, expect, it } from 'vitest';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { submitLead } from '../../src/domain/intake/submit-lead.js';
import { addNote } from '../../src/domain/leads/add-note.js';
import { assignLead } from '../../src/domain/leads/assign-lead.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { setFollowUp } from '../../src/domain/leads/set-follow-up.js';
import { erasePerson } from '../../src/domain/persons/erase-person.js';
import { exportPerson } from '../../src/domain/persons/export-person.js';
import { markAsSpam } from '../../src/domain/quarantine/mark-as-spam.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { everyRow } from '../helpers/every-row.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const PERSON = {
  name: 'Zoë Marked',
  email: 'zoe.marked@example.com',
  phone: '+1 415 555 0199',
  notes: 'A new kitchen floor',
  budget: 'about 5k',
};
const TEAM_NOTE = 'Called her, she wants a quote by Friday';

describeEachBackend('a person’s data: a lead marked as spam', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let clock: TestClock;
  beforeEach(async () => {
    clock = new TestClock(Date.UTC(2026, 2, 1, 10, 0));
    world = await createWorld(backend, { clock });
    seeded = await world.seed('Acme');
  });
  afterEach(async () => {
    await world.close();
  });

  const exportOf = (by: { email: string } | { phone: string }) =>
    exportPerson({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { ...by } });

  it('is exported as the live lead was, notes and history included, and erased to the last byte of the person', async () => {
    const member = await createUser({
      ctx: world.ctx,
      input: { email: 'mia@acme.example', workspaceId: seeded.workspaceId, role: 'member', displayName: 'Mia' },
    });
    const by = { userId: member.userId, label: 'Mia' };
    const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    const meta = { clientIp: '203.0.113.9', userAgent: 'ua/marked', origin: null, referer: null };
    const { leadId } = await submitLead({ ctx: world.ctx, input: { source, body: PERSON, meta } });
    await moveLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId, stage: 'contacted', by } });
    await assignLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId, assignee: { userId: member.userId }, by },
    });
    await setFollowUp({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { leadId, day: '2026-03-06', by } });
    await addNote({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { leadId, text: TEAM_NOTE, by } });

    const live = (await exportOf({ email: PERSON.email })).leads;
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      id: leadId,
      name: PERSON.name,
      clientIp: '203.0.113.9',
      extra: { budget: PERSON.budget },
    });
    expect(live[0]!.internalNotes.map((n) => n.text)).toEqual([TEAM_NOTE]);
    expect(live[0]!.history.map((h) => h.toStage)).toEqual(['contacted']);
    expect(live[0]!.events.map((e) => [e.kind, e.value])).toEqual([
      ['assigned', 'Mia'],
      ['follow_up', '2026-03-06'],
    ]);

    clock.advance(60_000);
    const { quarantineId } = await markAsSpam({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: leadId, by },
    });
    for (const match of [{ email: PERSON.email.toUpperCase() }, { phone: '1 (415) 555-0199' }]) {
      const exported = await exportOf(match);
      expect(exported.leads).toEqual([]);
      expect(
        exported.quarantine.map((q) => [q.id, q.reason]),
        JSON.stringify(match),
      ).toEqual([[quarantineId, 'marked_spam']]);
      // What the Quarantine entry keeps of the lead is exported in the live lead's own shape, all of it.
      expect(exported.quarantine[0]!.markedLead).toEqual(live[0]);
    }

    const erased = await erasePerson({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { email: PERSON.email },
    });
    expect(erased.deleted).toMatchObject({ leads: [], quarantine: [quarantineId] });
    const rows = await everyRow(world.store);
    for (const trace of [
      PERSON.email,
      PERSON.name,
      PERSON.notes,
      PERSON.budget,
      '5550199',
      '555 0199',
      TEAM_NOTE,
      meta.userAgent,
    ]) {
      expect(
        rows.filter((row) => row.text.toLowerCase().includes(trace.toLowerCase())).map((row) => row.table),
        trace,
      ).toEqual([]);
    }
    // The lead's id is left only where ids are all there is: the audit log of what the team did.
    expect(new Set(rows.filter((row) => row.text.includes(leadId)).map((row) => row.table))).toEqual(
      new Set(['audit_log']),
    );
  });

  it('finds leads by the email however it is written, and only in this workspace', async () => {
    const other = await world.seed('Other');
    const meta = { clientIp: '203.0.113.9', userAgent: 'ua/case', origin: null, referer: null };
    const post = async (token: string, email: string) => {
      const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(token) } });
      return (await submitLead({ ctx: world.ctx, input: { source, body: { name: 'Ana', email }, meta } })).leadId;
    };
    const mixed = await post(seeded.source.token, 'Ana.Case@Example.COM');
    const lower = await post(seeded.source.token, 'ana.case@example.com');
    await post(other.source.token, 'ana.case@example.com');
    await post(seeded.source.token, 'ana.case@example.org');
    const found = await exportOf({ email: '  ANA.CASE@example.com ' });
    expect(found.leads.map((l) => l.id).sort()).toEqual([mixed, lower].sort());
    // The other workspace's lead has the same email, and was left out.
    expect(
      await world.store.db.selectFrom('leads').select('id').where('email_key', '=', 'ana.case@example.com').execute(),
    ).toHaveLength(3);
  });
});
