import { leadCtx } from '../helpers/contexts.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { submitLead, type IntakeMeta } from '../../src/domain/intake/submit-lead.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { findActiveSourceCached } from '../../src/domain/intake/source-cache.js';
import { addNote } from '../../src/domain/leads/add-note.js';
import { assignLead } from '../../src/domain/leads/assign-lead.js';
import { exportLeadsCsv } from '../../src/domain/leads/export-leads.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { countRecentCatches } from '../../src/domain/quarantine/count-recent-catches.js';
import { listQuarantine } from '../../src/domain/quarantine/list-quarantine.js';
import { markAsSpam } from '../../src/domain/quarantine/mark-as-spam.js';
import { restoreQuarantined } from '../../src/domain/quarantine/restore-quarantined.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { getSpamRules, updateSpamRules } from '../../src/domain/sources/update-spam-rules.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { phoneKey } from '../../src/storage/contact-keys.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const DAY = 24 * 60 * 60 * 1000;
const meta: IntakeMeta = { clientIp: '203.0.113.7', userAgent: 'ua/1', origin: null, referer: null };

describeEachBackend('spam rules, Mark as spam and possible duplicates', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let clock: TestClock;

  beforeEach(async () => {
    clock = new TestClock(Date.UTC(2026, 2, 1, 10, 0));
    world = await createWorld(backend, { clock });
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  // As the intake route reads it: through the source cache, which a management write must invalidate.
  const source = async (): Promise<LeadSource> => (await findActiveSourceCached(world.ctx, seeded.source.token))!;
  const post = async (body: Record<string, unknown>, m: Partial<IntakeMeta> = {}) =>
    submitLead({ ctx: world.ctx, input: { source: await source(), body, meta: { ...meta, ...m } } });
  const block = (add: Parameters<typeof updateSpamRules>[0]['input']['add']) =>
    updateSpamRules({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { sourceId: seeded.source.id, add } });
  const leadIds = async () =>
    (await world.store.db.selectFrom('leads').select('id').orderBy('received_at').execute()).map((r) => r.id);
  const quarantine = () => listQuarantine({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });

  it('blocked emails, domains and words quarantine with the rule that matched; Restore makes the lead', async () => {
    await post({ name: 'Before rules', email: 'Spammer@Example.com' });
    await block({
      blockedEmails: ['spammer@example.com'],
      blockedDomains: ['@Junk.example'],
      blockedWords: ['Viagra', 'cheap seo'],
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'A', email: '  SPAMMER@example.COM ' }, 'email spammer@example.com'],
      [{ name: 'B', email: 'x@junk.example' }, 'domain junk.example'],
      [{ name: 'C', email: 'x@mail.junk.example' }, 'domain junk.example'],
      [{ name: 'D', notes: 'Buy VIAGRA now' }, 'word viagra'],
      [{ name: 'E', budget: 'We do Cheap SEO!' }, 'word cheap seo'],
    ];
    for (const [body] of cases) {
      const result = await post(body);
      expect(result.quarantined).toBe(true);
    }
    const caught = await quarantine();
    expect(caught.map((q) => [q.fields.name, q.reason, q.detail])).toEqual(
      cases.map(([body, detail]) => [body.name, 'blocked_rule', detail]).reverse(),
    );
    // Whole words only, and other addresses of the domain's neighbours pass.
    for (const body of [
      { name: 'Viagrax fan', notes: 'aviagra' },
      { name: 'Ok', email: 'x@notjunk.example' },
    ]) {
      expect((await post(body)).quarantined).toBe(false);
    }
    expect(await leadIds()).toHaveLength(3);
    const restored = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: caught.at(-1)!.id },
    });
    const lead = await openLead({
      ctx: await leadCtx(world.ctx, restored.leadId),
      input: { id: restored.leadId, markOpened: false },
    });
    expect([lead.name, lead.email]).toEqual(['A', 'SPAMMER@example.COM']);
  });

  it('allowed sites: other hosts are site_not_allowed; listed hosts, *.suffix, no header and our own host pass', async () => {
    await block({ allowedSites: ['www.roofer.example', '*.builder.example'] });
    const results = await Promise.all([
      post({ name: 'other' }, { origin: 'https://evil.example' }),
      post({ name: 'referer only' }, { referer: 'https://evil.example/contact?x=1' }),
      post({ name: 'listed' }, { origin: 'https://www.roofer.example' }),
      post({ name: 'suffix' }, { origin: 'https://shop.builder.example', referer: 'https://evil.example/' }),
      post({ name: 'bare suffix' }, { origin: 'https://builder.example' }),
      post({ name: 'no header' }),
      post({ name: 'own form' }, { origin: 'https://leads.ours.example', host: 'leads.ours.example' }),
    ]);
    expect(results.map((r) => r.quarantined)).toEqual([true, true, false, false, true, false, false]);
    const caught = await quarantine();
    expect(caught.map((q) => [q.fields.name, q.reason, q.detail]).sort()).toEqual([
      ['bare suffix', 'site_not_allowed', 'builder.example'],
      ['other', 'site_not_allowed', 'evil.example'],
      ['referer only', 'site_not_allowed', 'evil.example'],
    ]);
    const { leadId } = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: caught[0]!.id },
    });
    expect(await leadIds()).toContain(leadId);
  });

  it('answers a caught post exactly as an accepted one: same keys, an id of the real format that names no lead', async () => {
    await block({ blockedWords: ['casino'] });
    const accepted = await post({ name: 'Real' });
    const caught = await post({ name: 'Casino bonus' });
    expect(Object.keys(caught)).toEqual(Object.keys(accepted));
    expect(caught.leadId).toMatch(/^lead_[0-9a-f]{32}$/);
    expect(await leadIds()).not.toContain(caught.leadId);
  });

  it('checks and bounds the rules, and removes entries as typed', async () => {
    await expect(block({ blockedEmails: ['not an email'] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(block({ allowedSites: ['bad host!'] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(block({ blockedWords: Array.from({ length: 501 }, (_, i) => `w${i}`) })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(block({ blockedWords: ['x'.repeat(201)] })).rejects.toMatchObject({ code: 'invalid_request' });
    await block({
      blockedDomains: ['@Junk.example', 'junk.example'],
      allowedSites: ['https://www.roofer.example/contact'],
    });
    expect(
      (await getSpamRules({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { sourceId: seeded.source.id } }))
        .rules,
    ).toEqual({
      blockedEmails: [],
      blockedDomains: ['junk.example'],
      blockedWords: [],
      allowedSites: ['www.roofer.example'],
    });
    await updateSpamRules({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { sourceId: seeded.source.id, remove: { blockedDomains: ['JUNK.example'] } },
    });
    expect(
      (await getSpamRules({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { sourceId: seeded.source.id } }))
        .rules.blockedDomains,
    ).toEqual([]);
    const other = await world.seed('Other');
    await expect(
      getSpamRules({ ctx: inWorkspace(world.ctx, other.workspaceId), input: { sourceId: seeded.source.id } }),
    ).rejects.toMatchObject({ code: 'source_not_found' });
  });

  it('Mark as spam moves the lead to Quarantine and Restore brings it back as it was, under the same id', async () => {
    const member = await createUser({
      ctx: world.ctx,
      input: { email: 'mia@acme.example', workspaceId: seeded.workspaceId, role: 'member', displayName: 'Mia' },
    });
    const by = { userId: member.userId, label: 'Mia' };
    const { leadId } = await post({
      name: 'Zoë Spam',
      email: 'zoe@example.com',
      phone: '555 0100 123',
      notes: 'Hello',
      budget: '5k',
    });
    const receivedAt = (
      await openLead({ ctx: await leadCtx(world.ctx, leadId), input: { id: leadId, markOpened: false } })
    ).receivedAt;
    await moveLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId, stage: 'contacted', by } });
    await assignLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId, assignee: { userId: member.userId }, by },
    });
    await addNote({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { leadId, text: 'Called once', by } });
    clock.advance(DAY);

    const marked = await markAsSpam({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId, by } });
    expect(await leadIds()).toEqual([]);
    expect(await world.store.db.selectFrom('lead_unread').selectAll().execute()).toEqual([]);
    const list = (search: string) => listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { search } });
    expect((await list('zoe')).leads).toEqual([]);
    const [entry] = await quarantine();
    expect([entry!.id, entry!.reason, entry!.detail, entry!.fields.name, entry!.fields.budget]).toEqual([
      marked.quarantineId,
      'marked_spam',
      'Mia',
      'Zoë Spam',
      '5k',
    ]);
    // Marked leads are not the top bar's news: the person just put it there.
    expect(await countRecentCatches({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} })).toBe(0);
    await expect(
      markAsSpam({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: leadId, by } }),
    ).rejects.toMatchObject({
      code: 'lead_not_found',
    });

    const restored = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: entry!.id },
    });
    expect(restored.leadId).toBe(leadId);
    const back = await openLead({ ctx: await leadCtx(world.ctx, leadId), input: { id: leadId, markOpened: false } });
    expect([back.name, back.email, back.extra, back.receivedAt, back.stage, back.assignee?.userId]).toEqual([
      'Zoë Spam',
      'zoe@example.com',
      { budget: '5k' },
      receivedAt,
      'contacted',
      member.userId,
    ]);
    expect(back.internalNotes.map((n) => n.text)).toEqual(['Called once']);
    expect(back.history.map((h) => h.toStage)).toEqual(['contacted']);
    expect((await list('zoe')).leads.map((l) => l.id)).toEqual([leadId]);
    await expect(
      restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: entry!.id } }),
    ).rejects.toMatchObject({
      code: 'already_restored',
    });
  });

  it('the top bar counts catches of the last 7 days that are not restored, per workspace', async () => {
    const count = () => countRecentCatches({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    await post({ name: 'old', website: 'x' });
    clock.advance(6 * DAY);
    await post({ name: 'recent', website: 'x' });
    await post({ name: 'restored', website: 'x' });
    expect(await count()).toBe(3);
    const restoredId = (await quarantine()).find((q) => q.fields.name === 'restored')!.id;
    await restoreQuarantined({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: restoredId } });
    expect(await count()).toBe(2);
    clock.advance(DAY + 1);
    expect(await count()).toBe(1);
    const other = await world.seed('Other');
    expect(await countRecentCatches({ ctx: inWorkspace(world.ctx, other.workspaceId), input: {} })).toBe(0);
  });

  it('marks possible duplicates by email in any case and by phone written differently, within 365 days', async () => {
    expect(phoneKey('+1 (415) 555-0100')).toBe(phoneKey('4155550100'));
    expect(phoneKey('555-01')).toBeNull();
    const first = await post({ name: 'First', email: 'Ann@Example.com', phone: '+1 (415) 555-0100' });
    clock.advance(DAY);
    const byEmail = await post({ name: 'By email', email: '  ann@example.COM ' });
    const byPhone = await post({ name: 'By phone', phone: '4155550100' });
    const stranger = await post({ name: 'Stranger', email: 'bob@example.com', phone: '4155550199' });
    clock.advance(400 * DAY);
    const late = await post({ name: 'Late', email: 'bob@example.com' });
    const other = await world.seed('Other');
    const otherSource = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(other.source.token) } });
    const elsewhere = await submitLead({
      ctx: world.ctx,
      input: { source: otherSource, body: { name: 'Elsewhere', email: 'ann@example.com' }, meta },
    });

    const page = await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    const marks = Object.fromEntries(page.leads.map((l) => [l.name, l.possibleDuplicate]));
    expect(marks).toEqual({ First: false, 'By email': true, 'By phone': true, Stranger: false, Late: false });
    const filtered = await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { duplicates: true } });
    expect(filtered.leads.map((l) => l.id).sort()).toEqual([byEmail.leadId, byPhone.leadId].sort());
    const detail = await openLead({
      ctx: await leadCtx(world.ctx, byPhone.leadId),
      input: { id: byPhone.leadId, markOpened: false },
    });
    expect(detail.earlier.map((e) => [e.id, e.matchedBy])).toEqual([[first.leadId, ['phone']]]);
    expect(
      (await openLead({ ctx: await leadCtx(world.ctx, late.leadId), input: { id: late.leadId, markOpened: false } }))
        .earlier,
    ).toEqual([]);
    expect(
      (
        await openLead({
          ctx: await leadCtx(world.ctx, elsewhere.leadId),
          input: { id: elsewhere.leadId, markOpened: false },
        })
      ).earlier,
    ).toEqual([]);
    expect(stranger.leadId).toBeTruthy();

    const csv = await exportLeadsCsv({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    const chunks: Buffer[] = [];
    for await (const chunk of csv) chunks.push(Buffer.from(chunk as Buffer));
    const lines = Buffer.concat(chunks).toString('utf8').split('\r\n');
    const header = lines[0]!.replace(/^\ufeff/, '').split(',');
    const column = header.indexOf('"possible_duplicate"');
    expect(column).toBeGreaterThan(-1);
    const yes = lines.slice(1).filter((l) => l.split(',')[column] === '"yes"');
    expect(yes).toHaveLength(2);
  });
});
