import { parse } from 'csv-parse/sync';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { exportLeadsCsv } from '../../src/domain/leads/export-leads.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { addFormField } from '../../src/domain/forms/add-form-field.js';
import { contrastWithWhite } from '../../src/domain/forms/accent-colour.js';
import { answerName, type FormFieldDefinition } from '../../src/domain/forms/form-definition.js';
import { moveFormField } from '../../src/domain/forms/move-form-field.js';
import { removeFormField } from '../../src/domain/forms/remove-form-field.js';
import { setFormAccent } from '../../src/domain/forms/set-form-accent.js';
import { readSourceForm } from '../../src/domain/forms/source-form.js';
import { inWorkspace, type DomainContext } from '../../src/domain/context.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { submitLead, type IntakeMeta } from '../../src/domain/intake/submit-lead.js';
import { restoreQuarantined } from '../../src/domain/quarantine/restore-quarantined.js';
import type { LeadSource } from '../../src/domain/sources/source.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

const meta: IntakeMeta = { clientIp: '203.0.113.7', userAgent: 'ua/1', origin: null, referer: null };

/** The world's context with every query through `store.db` written down (as Kysely's operation tree, in JSON). */
function withQueryLog(ctx: DomainContext): { ctx: DomainContext; queries: string[] } {
  const queries: string[] = [];
  const log: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries.push(JSON.stringify(node));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const db = ctx.store.db.withPlugin(log);
  const store = new Proxy(ctx.store, { get: (target, key) => (key === 'db' ? db : Reflect.get(target, key)) });
  return { ctx: { ...ctx, store }, queries };
}

/** Whether a logged query names a table (Kysely writes a table's name as an identifier node). */
const names = (query: string, table: string) => query.includes(`"name":"${table}"`);

describeEachBackend('hosted form: own fields, render stamp, page address', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let source: LeadSource;
  let clock: TestClock;
  let work: FormFieldDefinition;
  let when: FormFieldDefinition;
  let extras: FormFieldDefinition;
  let consent: FormFieldDefinition;

  beforeEach(async () => {
    clock = new TestClock(Date.parse('2026-03-01T10:00:00.000Z'));
    world = await createWorld(backend, { clock });
    seeded = await world.seed();
    source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    const add = (field: Parameters<typeof addFormField>[0]['input']['field']) =>
      addFormField({ ctx: world.ctx, input: { sourceId: source.id, field } });
    work = await add({ kind: 'choice', label: 'Type of work', required: true, options: 'Kitchen\nBathroom\nRoof' });
    when = await add({ kind: 'date', label: 'Preferred date', help: 'Roughly' });
    extras = await add({ kind: 'checkboxes', label: 'Extras', options: ['Design', 'Permits', 'Disposal'] });
    consent = await add({
      kind: 'consent',
      label: 'Consent',
      required: true,
      consentText: 'You may call me about this request.',
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await world.close();
  });

  /** Stops the wall clock the source cache's lifetime is measured on: an entry then leaves only by being dropped. */
  const holdCacheClock = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });

  /** A hosted-form post: the stamp of a form rendered `ageMs` ago. */
  const stampAged = (ageMs: number) => world.ctx.formStamps.make(source.id, new Date(clock.now().getTime() - ageMs));
  const post = (body: Record<string, unknown>) => submitLead({ ctx: world.ctx, input: { source, body, meta } });
  const leadRow = (id: string) =>
    world.store.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const quarantined = () =>
    world.store.db.selectFrom('quarantine').selectAll().where('source_id', '=', source.id).execute();
  const good = () => ({
    formStamp: stampAged(5000),
    name: 'Ada',
    [answerName(work)]: 'Roof',
    [answerName(when)]: '2026-04-02',
    [answerName(extras)]: ['Permits', 'Design'],
    [answerName(consent)]: 'yes',
    pageUrl: 'https://contractor.example/contact?utm_source=ad',
  });

  it('stores the answers under their labels, the lists in the list order, and the page address', async () => {
    const result = await post(good());
    expect(result.quarantined).toBe(false);
    const row = await leadRow(result.leadId);
    expect(JSON.parse(row.extra)).toEqual({
      'Type of work': 'Roof',
      'Preferred date': '2026-04-02',
      Extras: 'Design, Permits',
      Consent: 'Agreed: You may call me about this request.',
    });
    expect(row.page_url).toBe('https://contractor.example/contact?utm_source=ad');
    // The page goes with the lead to its page and to the CSV export.
    const opened = await openLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: result.leadId, markOpened: false },
    });
    expect(opened.pageUrl).toBe('https://contractor.example/contact?utm_source=ad');
    const chunks: Buffer[] = [];
    for await (const chunk of await exportLeadsCsv({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} }))
      chunks.push(Buffer.from(chunk as Buffer));
    const [csvRow] = parse(Buffer.concat(chunks), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(csvRow!.page_url).toBe('https://contractor.example/contact?utm_source=ad');
  });

  it('refuses a hosted-form post with each problem named by its field, and the same words as the page shows', async () => {
    const body = {
      ...good(),
      [answerName(work)]: 'Garden',
      [answerName(when)]: '2026-02-30',
      [answerName(consent)]: '',
    };
    const error = await post(body).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_fields' });
    const fieldErrors = (error as { fieldErrors: Array<{ field: string; code: string; message: string }> }).fieldErrors;
    expect(fieldErrors.map((e) => [e.field, e.code])).toEqual([
      [answerName(work), 'invalid'],
      [answerName(when), 'invalid'],
      [answerName(consent), 'required'],
    ]);
    expect(fieldErrors[0]!.message).toBe('Please choose one of the listed answers for “Type of work”.');
    expect(fieldErrors[1]!.message).toBe('Please give “Preferred date” as a date (YYYY-MM-DD).');
    // Missing contact and a missing answer are reported together.
    const both = await post({ formStamp: stampAged(5000), [answerName(consent)]: 'yes' }).catch((e: unknown) => e);
    expect(both).toMatchObject({ code: 'missing_contact' });
    expect((both as { fieldErrors: Array<{ field: string }> }).fieldErrors.map((e) => e.field)).toEqual([
      answerName(work),
    ]);
    // A checkbox not in the list.
    await expect(post({ ...good(), [answerName(extras)]: ['Design', 'Pool'] })).rejects.toMatchObject({
      code: 'invalid_fields',
    });
    expect(await world.store.db.selectFrom('leads').select('id').where('source_id', '=', source.id).execute()).toEqual(
      [],
    );
  });

  it('takes a direct API post without the fields (they are optional to the API), its cf_ keys as plain extras', async () => {
    const result = await post({ name: 'Direct', [answerName(work)]: 'Garden' });
    const row = await leadRow(result.leadId);
    expect(JSON.parse(row.extra)).toEqual({ [answerName(work)]: 'Garden' });
    expect(row.page_url).toBeNull();
  });

  it('refuses a pageUrl that is not an absolute http(s) address or is too long', async () => {
    for (const pageUrl of [
      'javascript:alert(1)',
      '/contact',
      'ftp://x.example/',
      `https://x.example/${'a'.repeat(2000)}`,
      { a: 1 },
    ]) {
      await expect(post({ name: 'Ada', pageUrl })).rejects.toMatchObject({
        code: 'invalid_fields',
        fieldErrors: [expect.objectContaining({ field: 'pageUrl' })],
      });
    }
  });

  it("quarantines too_fast: a post under 2 s after render, a forged stamp, a missing one, another source's; a good one after 2 s is a lead", async () => {
    const forged = `${clock.now().getTime() - 60_000}.${'A'.repeat(43)}`;
    const other = world.ctx.formStamps.make('src_other', new Date(clock.now().getTime() - 60_000));
    for (const formStamp of [stampAged(1999), stampAged(0), forged, '', 'garbage', other, stampAged(-60_000)]) {
      const result = await post({ ...good(), formStamp });
      expect(result.quarantined).toBe(true);
      expect(result.leadId).toMatch(/^lead_[0-9a-f]{32}$/);
    }
    const rows = await quarantined();
    expect(rows.map((r) => r.reason)).toEqual(Array(7).fill('too_fast'));
    // The answers are kept under their labels, the stamp is not: a person can restore a false catch.
    const kept = JSON.parse(rows[0]!.fields) as Record<string, string>;
    expect(kept).toMatchObject({ name: 'Ada', 'Type of work': 'Roof', Extras: 'Permits, Design' });
    expect(kept).not.toHaveProperty('formStamp');
    const restored = await restoreQuarantined({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: rows[0]!.id },
    });
    expect(JSON.parse((await leadRow(restored.leadId)).extra)).toMatchObject({ 'Type of work': 'Roof' });

    // Rendered now, posted 2 s later by the injected clock: a lead.
    const stamp = world.ctx.formStamps.make(source.id, clock.now());
    clock.advance(2000);
    expect((await post({ ...good(), formStamp: stamp })).quarantined).toBe(false);
  });

  it('refuses an invalid post before the render stamp judges it: an empty form sent at once is told what is missing', async () => {
    // Sent at once (the stamp of this very moment) and empty: the interface's missing-contact refusal, not a catch.
    await expect(post({ formStamp: stampAged(0) })).rejects.toMatchObject({ code: 'missing_contact' });
    // A forged stamp and a required answer missing: the field's refusal too.
    await expect(post({ ...good(), formStamp: 'garbage', [answerName(work)]: '' })).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: [expect.objectContaining({ field: answerName(work), code: 'required' })],
    });
    expect(await quarantined()).toEqual([]);
    // The honeypot still answers first, even for an empty post.
    expect((await post({ formStamp: stampAged(0), website: 'x' })).quarantined).toBe(true);
    expect((await quarantined()).map((r) => r.reason)).toEqual(['honeypot']);
  });

  it('a form edit is seen by the very next post through the source cache: a new required field is asked for at once', async () => {
    holdCacheClock();
    // As POST /api/intake/{token} reads the source: through the cache, which carries the form's fields.
    const viaCache = async (body: Record<string, unknown>) => {
      const cached = await openIntake({
        ctx: world.ctx,
        input: { token: parseIntakeToken(seeded.source.token), cached: true },
      });
      return submitLead({ ctx: world.ctx, input: { source: cached, body, meta } });
    };
    expect((await viaCache(good())).quarantined).toBe(false);
    const size = await addFormField({
      ctx: world.ctx,
      input: { sourceId: source.id, field: { kind: 'short_text', label: 'Roof size', required: true } },
    });
    await expect(viaCache(good())).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: [expect.objectContaining({ field: answerName(size), code: 'required' })],
    });
    const sized = await viaCache({ ...good(), [answerName(size)]: '80 m2' });
    expect(JSON.parse((await leadRow(sized.leadId)).extra)).toMatchObject({ 'Roof size': '80 m2' });
    // A removed required field is no longer asked for.
    await removeFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: work.id } });
    const { [answerName(work)]: _work, ...withoutWork } = { ...good(), [answerName(size)]: '80 m2' };
    const lead = await viaCache(withoutWork);
    expect(JSON.parse((await leadRow(lead.leadId)).extra)).not.toHaveProperty('Type of work');
  });

  it('reads no source or form row per hosted-form post once the source is cached', async () => {
    holdCacheClock();
    const logged = withQueryLog(world.ctx);
    const viaCache = async (body: Record<string, unknown>) => {
      const cached = await openIntake({
        ctx: logged.ctx,
        input: { token: parseIntakeToken(seeded.source.token), cached: true },
      });
      return submitLead({ ctx: logged.ctx, input: { source: cached, body, meta } });
    };
    expect((await viaCache(good())).quarantined).toBe(false);
    // The first post looked the source up, its form's fields with it.
    expect(logged.queries.filter((q) => names(q, 'lead_sources'))).toHaveLength(1);
    logged.queries.length = 0;
    for (let i = 0; i < 5; i += 1) expect((await viaCache(good())).quarantined).toBe(false);
    expect((await viaCache({ ...good(), formStamp: stampAged(0) })).quarantined).toBe(true);
    await expect(viaCache({ ...good(), [answerName(work)]: 'Garden' })).rejects.toMatchObject({
      code: 'invalid_fields',
    });
    expect(logged.queries.filter((q) => names(q, 'lead_sources') || names(q, 'lead_source_texts'))).toEqual([]);
    expect(
      await world.store.db.selectFrom('leads').select('id').where('source_id', '=', source.id).execute(),
    ).toHaveLength(6);
  });

  it('adds, moves and removes fields within the bounds; refuses duplicate or built-in labels and bad options', async () => {
    const ids = async () => (await readSourceForm(world.ctx, source.id)).fields.map((f) => f.label);
    expect(await ids()).toEqual(['Type of work', 'Preferred date', 'Extras', 'Consent']);
    await moveFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: consent.id, direction: 'up' } });
    await moveFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: work.id, direction: 'up' } });
    expect(await ids()).toEqual(['Type of work', 'Preferred date', 'Consent', 'Extras']);
    await removeFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: when.id } });
    expect(await ids()).toEqual(['Type of work', 'Consent', 'Extras']);
    await expect(
      removeFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: when.id } }),
    ).rejects.toMatchObject({ code: 'form_field_not_found' });

    const add = (field: Parameters<typeof addFormField>[0]['input']['field']) =>
      addFormField({ ctx: world.ctx, input: { sourceId: source.id, field } });
    await expect(add({ kind: 'short_text', label: 'extras' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'label' })],
    });
    await expect(add({ kind: 'short_text', label: 'Email' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'label' })],
    });
    await expect(add({ kind: 'short_text', label: 'x'.repeat(81) })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ code: 'too_long' })],
    });
    await expect(add({ kind: 'choice', label: 'One option', options: 'Only' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'options' })],
    });
    await expect(add({ kind: 'choice', label: 'Twice', options: 'A\na' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'options' })],
    });
    await expect(add({ kind: 'consent', label: 'No text' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'consentText' })],
    });
    await expect(add({ kind: 'slider', label: 'Odd' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'kind' })],
    });
    for (let i = 3; i < 20; i += 1) await add({ kind: 'short_text', label: `Field ${i}` });
    await expect(add({ kind: 'short_text', label: 'One too many' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ code: 'too_many' })],
    });
    expect(await ids()).toHaveLength(20);
  });

  it('a move that changes nothing (the first field up, the last down) writes nothing and records nothing', async () => {
    const audits = async () =>
      (await world.store.db.selectFrom('audit_log').select('id').where('action', '=', 'source.form_changed').execute())
        .length;
    const stored = () =>
      world.store.db
        .selectFrom('lead_source_texts')
        .selectAll()
        .where('source_id', '=', source.id)
        .executeTakeFirstOrThrow();
    const before = { audits: await audits(), row: await stored() };
    clock.advance(60_000);
    // One order for the built-in fields and the own ones: Name is first, the consent box last.
    await moveFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: 'name', direction: 'up' } });
    await moveFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: consent.id, direction: 'down' } });
    expect(await audits()).toBe(before.audits);
    expect(await stored()).toEqual(before.row);
    // A move that does change the order is still recorded.
    await moveFormField({ ctx: world.ctx, input: { sourceId: source.id, fieldId: consent.id, direction: 'up' } });
    expect(await audits()).toBe(before.audits + 1);
  });

  it('takes an accent colour with AA contrast against white and refuses one without', async () => {
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1);
    expect(contrastWithWhite('#000000')).toBeCloseTo(21);
    expect(await setFormAccent({ ctx: world.ctx, input: { sourceId: source.id, accent: '#0B6E4F' } })).toBe('#0b6e4f');
    await expect(
      setFormAccent({ ctx: world.ctx, input: { sourceId: source.id, accent: '#ffcc00' } }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    await expect(
      setFormAccent({ ctx: world.ctx, input: { sourceId: source.id, accent: 'red' } }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });
    expect((await readSourceForm(world.ctx, source.id)).accent).toBe('#0b6e4f');
    // The colour it already has (however written) changes nothing and records nothing.
    const recorded = async () =>
      (
        await world.store.db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'source.accent_changed')
          .execute()
      ).length;
    const before = await recorded();
    expect(await setFormAccent({ ctx: world.ctx, input: { sourceId: source.id, accent: '#0b6e4F' } })).toBe('#0b6e4f');
    expect(await recorded()).toBe(before);
    expect(await setFormAccent({ ctx: world.ctx, input: { sourceId: source.id, accent: '' } })).toBeNull();
    expect(await recorded()).toBe(before + 1);
  });
});
