import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acceptanceHash, canonicalJson, acceptanceContent } from '../../../src/domain/quotes/acceptance-hash.js';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { copyQuote } from '../../../src/domain/quotes/copy-quote.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { openQuoteByToken } from '../../../src/domain/quotes/customer-quote.js';
import { declineQuote } from '../../../src/domain/quotes/decline-quote.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';
import { listQuotes } from '../../../src/domain/quotes/list-quotes.js';
import { recordQuoteView } from '../../../src/domain/quotes/record-quote-view.js';
import { moveQuoteLine } from '../../../src/domain/quotes/reorder-quote-lines.js';
import { removeQuoteLine } from '../../../src/domain/quotes/remove-quote-line.js';
import { reviseQuote } from '../../../src/domain/quotes/revise-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../../src/domain/quotes/update-quote.js';
import { updateQuoteLine } from '../../../src/domain/quotes/update-quote-line.js';
import { withdrawQuote } from '../../../src/domain/quotes/withdraw-quote.js';
import { deleteLead } from '../../../src/domain/leads/delete-lead.js';
import { exportPerson } from '../../../src/domain/persons/export-person.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';
import { leadOf, quoteWorkspace } from './quote-fixtures.js';
import { inWorkspace } from '../../../src/domain/context.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const BY = { userId: null, label: 'cli' };

describeEachBackend("quotes: lines, sending, numbers and the customer's answer", (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let ws: Seeded;
  beforeAll(async () => {
    clock = new TestClock(NOW);
    world = await createWorld(backend, { clock });
    ws = await quoteWorkspace(world, 'Lifecycle', { timeZone: 'America/Toronto' });
  });
  afterAll(async () => {
    await world.close();
  });

  const draft = async (leadId?: string) => {
    const lead = leadId ?? (await leadOf(world, ws));
    const quote = await createQuote({ ctx: await leadCtx(world.ctx, lead), input: { leadId: lead } });
    return addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Labour', quantity: '8', unit: 'hour', price: '65' } },
    });
  };
  const stageOf = async (leadId: string) =>
    (await world.store.db.selectFrom('leads').select('stage').where('id', '=', leadId).executeTakeFirstOrThrow()).stage;

  it('edits a draft: free lines, discounts, optional lines, reorder, remove, details; totals follow', async () => {
    const ctx = world.ctx;
    let q = await draft();
    expect(q.validUntil).toBe('2026-12-26');
    expect(q.lines[0]).toMatchObject({ quantity: 800, unitPrice: 6500, amount: 52000, taxes: ['GST', 'QST'] });
    q = await addQuoteLine({
      ctx: await quoteCtx(ctx, q.id),
      input: {
        quoteId: q.id,
        line: { description: 'Loyalty discount', quantity: '1', unit: 'fixed', price: '-20', taxes: ['gst'] },
      },
    });
    q = await addQuoteLine({
      ctx: await quoteCtx(ctx, q.id),
      input: {
        quoteId: q.id,
        line: {
          description: 'Extra coat',
          quantity: '1',
          unit: 'fixed',
          price: '100',
          taxes: [],
          optional: true,
          chosen: false,
        },
      },
    });
    expect(q.subtotal).toBe(52000 - 2000);
    expect(q.taxes.find((t) => t.name === 'GST')!.amount).toBe(2500);
    expect(q.taxes.find((t) => t.name === 'QST')!.amount).toBe(5187); // 9.975 % of 520.00 = 51.87
    const [labour, discount, extra] = q.lines;
    q = await updateQuoteLine({
      ctx: await quoteCtx(ctx, q.id),
      input: {
        quoteId: q.id,
        lineId: extra!.id,
        line: { description: 'Extra coat', quantity: '1', unit: 'fixed', price: '100', chosen: true },
      },
    });
    expect(q.subtotal).toBe(60000);
    q = await moveQuoteLine({
      ctx: await quoteCtx(ctx, q.id),
      input: { quoteId: q.id, lineId: extra!.id, direction: 'up' },
    });
    expect(q.lines.map((l) => l.id)).toEqual([labour!.id, extra!.id, discount!.id]);
    q = await removeQuoteLine({ ctx: await quoteCtx(ctx, q.id), input: { quoteId: q.id, lineId: discount!.id } });
    expect(q.subtotal).toBe(62000);
    await expect(
      updateQuoteLine({
        ctx: await quoteCtx(ctx, q.id),
        input: { quoteId: q.id, lineId: 'qln_0', line: { description: 'x', quantity: '1', unit: 'each', price: '1' } },
      }),
    ).rejects.toMatchObject({ code: 'quote_line_not_found' });
    await expect(
      addQuoteLine({
        ctx: await quoteCtx(ctx, q.id),
        input: {
          quoteId: q.id,
          line: { description: '', quantity: 'many', unit: 'yard', price: '1.001', taxes: ['PST'] },
        },
      }),
    ).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: expect.arrayContaining([
        expect.objectContaining({ field: 'description' }),
        expect.objectContaining({ field: 'quantity' }),
        expect.objectContaining({ field: 'unit' }),
        expect.objectContaining({ field: 'price' }),
        expect.objectContaining({ field: 'taxes' }),
      ]),
    });
    q = await updateQuote({
      ctx: await quoteCtx(ctx, q.id),
      input: {
        quoteId: q.id,
        details: {
          title: 'Kitchen repaint',
          note: 'Thanks!',
          validUntil: '2027-01-15',
          customerEmail: 'ada@new.example',
        },
      },
    });
    expect(q).toMatchObject({
      title: 'Kitchen repaint',
      note: 'Thanks!',
      validUntil: '2027-01-15',
      customer: { email: 'ada@new.example' },
    });
    await expect(
      updateQuote({ ctx: await quoteCtx(ctx, q.id), input: { quoteId: q.id, details: { validUntil: '2026-11-25' } } }),
    ).rejects.toMatchObject({ fieldErrors: [{ field: 'validUntil' }] });
  });

  it('numbers quotes in send order with no gap: a failed send takes no number; a revision keeps it', async () => {
    const ctx = world.ctx;
    const fresh = await quoteWorkspace(world, 'Numbers');
    const lead = await leadOf(world, fresh);
    const empty = await createQuote({ ctx: await leadCtx(ctx, lead), input: { leadId: lead } });
    await expect(
      sendQuote({ ctx: await quoteCtx(ctx, empty.id), input: { quoteId: empty.id, by: BY } }),
    ).rejects.toMatchObject({
      code: 'invalid_fields',
    });
    const a = await draft(lead);
    const b = await draft(lead);
    const sentB = await sendQuote({ ctx: await quoteCtx(ctx, b.id), input: { quoteId: b.id, by: BY } });
    const sentA = await sendQuote({ ctx: await quoteCtx(ctx, a.id), input: { quoteId: a.id, by: BY } });
    expect([sentB.quote.number, sentA.quote.number]).toEqual(['Q-0001', 'Q-0002']);
    expect(sentB.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(sentB.customerUrl).toBe(`http://leadscan.test/q/${sentB.token}`);
    await expect(sendQuote({ ctx: await quoteCtx(ctx, b.id), input: { quoteId: b.id, by: BY } })).rejects.toMatchObject(
      {
        code: 'quote_not_editable',
      },
    );
    await expect(
      addQuoteLine({
        ctx: await quoteCtx(ctx, b.id),
        input: { quoteId: b.id, line: { description: 'x', quantity: '1', unit: 'each', price: '1' } },
      }),
    ).rejects.toMatchObject({ code: 'quote_not_editable' });
    // The token is stored hashed (and sealed), never as it is.
    const stored = await world.store.db
      .selectFrom('quotes')
      .select(['token_hash', 'token_enc'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(sentB.token);

    const rev2 = await reviseQuote({ ctx: await quoteCtx(ctx, b.id), input: { quoteId: b.id } });
    expect(rev2).toMatchObject({ number: 'Q-0001', revision: 2, status: 'draft', customerUrl: null });
    expect((await reviseQuote({ ctx: await quoteCtx(ctx, b.id), input: { quoteId: b.id } })).id).toBe(rev2.id);
    await addQuoteLine({
      ctx: await quoteCtx(ctx, rev2.id),
      input: { quoteId: rev2.id, line: { description: 'Ceiling', quantity: '1', unit: 'fixed', price: '150' } },
    });
    const sentRev2 = await sendQuote({ ctx: await quoteCtx(ctx, rev2.id), input: { quoteId: rev2.id, by: BY } });
    expect(sentRev2.token).toBe(sentB.token);
    expect(sentRev2.replacedRevision).toBe(1);
    expect((await getQuote({ ctx: await quoteCtx(ctx, b.id), input: { ref: b.id } })).status).toBe('replaced');
    expect((await getQuote({ ctx: inWorkspace(ctx, fresh.workspaceId), input: { ref: 'Q-0001' } })).revision).toBe(2);
    const c = await draft(lead);
    expect((await sendQuote({ ctx: await quoteCtx(ctx, c.id), input: { quoteId: c.id, by: BY } })).quote.number).toBe(
      'Q-0003',
    );
    const listed = await listQuotes({ ctx, input: { workspaceId: fresh.workspaceId } });
    expect(listed.map((r) => `${r.number ?? '-'}/${r.revision}/${r.status}`).sort()).toEqual([
      '-/1/draft',
      'Q-0001/2/sent',
      'Q-0002/1/sent',
      'Q-0003/1/sent',
    ]);
    expect(
      (await listQuotes({ ctx, input: { workspaceId: fresh.workspaceId, status: 'draft' } })).map((r) => r.id),
    ).toEqual([empty.id]);
  });

  it('the customer views, accepts with name and hash; the lead moves; an old revision is refused; answers are final', async () => {
    const ctx = world.ctx;
    const lead = await leadOf(world, ws, 'Alan Turing');
    let q = await draft(lead);
    q = await addQuoteLine({
      ctx: await quoteCtx(ctx, q.id),
      input: {
        quoteId: q.id,
        line: { description: 'Feature wall', quantity: '1', unit: 'fixed', price: '90', optional: true, chosen: false },
      },
    });
    const sent = await sendQuote({ ctx: await quoteCtx(ctx, q.id), input: { quoteId: q.id, by: BY } });
    expect(await stageOf(lead)).toBe('quoted');
    const page = await openQuoteByToken({ ctx, input: { token: sent.token } });
    expect(page).toMatchObject({
      state: 'open',
      replacesEarlier: false,
      business: { name: 'Lifecycle' },
      quote: { status: 'sent', viewCount: 0 },
    });
    expect((await recordQuoteView({ ctx, input: { token: sent.token } })).first).toBe(true);
    expect((await recordQuoteView({ ctx, input: { token: sent.token } })).first).toBe(false);
    expect(await getQuote({ ctx: await quoteCtx(ctx, q.id), input: { ref: q.id } })).toMatchObject({
      status: 'viewed',
      viewCount: 2,
      viewedAt: new Date(NOW).toISOString(),
    });

    // A new revision sent meanwhile: the answer posted for revision 1 is refused.
    const rev2 = await reviseQuote({ ctx: await quoteCtx(ctx, q.id), input: { quoteId: q.id } });
    const sent2 = await sendQuote({ ctx: await quoteCtx(ctx, rev2.id), input: { quoteId: rev2.id, by: BY } });
    await expect(
      acceptQuote({ ctx, input: { token: sent.token, revision: 1, name: 'Alan Turing', agreed: true } }),
    ).rejects.toMatchObject({ code: 'quote_updated', detail: expect.stringMatching(/this quote was updated/i) });
    expect((await openQuoteByToken({ ctx, input: { token: sent.token } })).replacesEarlier).toBe(true);
    await expect(
      acceptQuote({ ctx, input: { token: sent.token, revision: 2, name: '  ', agreed: false } }),
    ).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'name' }), expect.objectContaining({ field: 'agreed' })],
    });
    const feature = sent2.quote.lines.find((l) => l.optional)!;
    const accepted = await acceptQuote({
      ctx,
      input: { token: sent2.token, revision: 2, name: ' Alan Turing ', agreed: true, chosenLineIds: [feature.id] },
    });
    expect(accepted.quote).toMatchObject({
      status: 'accepted',
      acceptedName: 'Alan Turing',
      acceptedAt: new Date(NOW).toISOString(),
      subtotal: 52000 + 9000,
    });
    expect(accepted.quote.acceptanceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(accepted.quote.acceptanceHash).toBe(acceptanceHash(accepted.quote, 2));
    // The canonical JSON: sorted keys, no spaces, money as integers.
    expect(canonicalJson(acceptanceContent(accepted.quote))).toMatch(
      /^\{"currency":"CAD","lines":\[\{"amount":52000,"chosen":true,"description":"Labour","optional":false,"quantity":800,"taxes":\["GST","QST"\],"unit":"hour","unitPrice":6500\}/,
    );
    expect(await stageOf(lead)).toBe('won');
    const history = await world.store.db
      .selectFrom('stage_history')
      .select(['to_stage', 'by_label'])
      .where('lead_id', '=', lead)
      .orderBy('moved_at')
      .orderBy('id')
      .execute();
    expect(history).toEqual([
      { to_stage: 'quoted', by_label: 'cli' },
      { to_stage: 'won', by_label: 'customer' },
    ]);
    await expect(
      acceptQuote({ ctx, input: { token: sent2.token, revision: 2, name: 'Alan', agreed: true } }),
    ).rejects.toMatchObject({ code: 'quote_final' });
    await expect(declineQuote({ ctx, input: { token: sent2.token, revision: 2 } })).rejects.toMatchObject({
      code: 'quote_final',
    });
    await expect(reviseQuote({ ctx: await quoteCtx(ctx, rev2.id), input: { quoteId: rev2.id } })).rejects.toMatchObject(
      { code: 'quote_final' },
    );
    await expect(
      withdrawQuote({ ctx: await quoteCtx(ctx, rev2.id), input: { quoteId: rev2.id } }),
    ).rejects.toMatchObject({ code: 'quote_final' });
    const copy = await copyQuote({ ctx: await quoteCtx(ctx, rev2.id), input: { quoteId: rev2.id } });
    expect(copy).toMatchObject({ status: 'draft', number: null, revision: 1, leadId: lead, customerUrl: null });
    expect(copy.lines.map((l) => l.description)).toEqual(['Labour', 'Feature wall']);

    const audit = await world.store.db
      .selectFrom('audit_log')
      .select(['action', 'target_ids', 'details'])
      .where('workspace_id', '=', ws.workspaceId)
      .where('action', 'like', 'quote.%')
      .execute();
    expect(new Set(audit.map((a) => a.action))).toEqual(
      new Set(['quote.created', 'quote.sent', 'quote.revised', 'quote.viewed', 'quote.accepted']),
    );
    expect(JSON.stringify(audit)).not.toMatch(/Alan|Turing|alan@/);
  });

  it('declines with a reason (lead lost), refuses a withdrawn quote, and expires after the end of its last day in the workspace zone', async () => {
    const ctx = world.ctx;
    const lead = await leadOf(world, ws, 'Barbara Liskov');
    const declined = await sendQuote({
      ctx: inWorkspace(ctx, ws.workspaceId),
      input: { quoteId: (await draft(lead)).id, by: BY },
    });
    const answer = await declineQuote({ ctx, input: { token: declined.token, revision: 1, reason: 'Too dear' } });
    expect(answer.quote).toMatchObject({ status: 'declined', declineReason: 'Too dear' });
    expect(await stageOf(lead)).toBe('lost');

    const withdrawn = await sendQuote({
      ctx: inWorkspace(ctx, ws.workspaceId),
      input: { quoteId: (await draft(lead)).id, by: BY },
    });
    expect(
      (await withdrawQuote({ ctx: await quoteCtx(ctx, withdrawn.quote.id), input: { quoteId: withdrawn.quote.id } }))
        .status,
    ).toBe('withdrawn');
    expect((await openQuoteByToken({ ctx, input: { token: withdrawn.token } })).state).toBe('withdrawn');
    await expect(
      acceptQuote({ ctx, input: { token: withdrawn.token, revision: 1, name: 'B', agreed: true } }),
    ).rejects.toMatchObject({ code: 'quote_link_unusable' });

    const expiring = await draft(lead);
    await updateQuote({
      ctx: await quoteCtx(ctx, expiring.id),
      input: { quoteId: expiring.id, details: { validUntil: '2026-11-27' } },
    });
    const sent = await sendQuote({ ctx: await quoteCtx(ctx, expiring.id), input: { quoteId: expiring.id, by: BY } });
    // 2026-11-28 04:59 UTC is still the 27th in Toronto (UTC−5): acceptable until then.
    clock.advance(Date.parse('2026-11-28T04:59:00.000Z') - clock.now().getTime());
    expect((await openQuoteByToken({ ctx, input: { token: sent.token } })).state).toBe('open');
    clock.advance(2 * 60 * 1000);
    expect((await openQuoteByToken({ ctx, input: { token: sent.token } })).state).toBe('expired');
    await expect(
      acceptQuote({ ctx, input: { token: sent.token, revision: 1, name: 'B', agreed: true } }),
    ).rejects.toMatchObject({ code: 'quote_expired' });
    expect(
      (await listQuotes({ ctx, input: { workspaceId: ws.workspaceId, status: 'expired' } })).map((r) => r.id),
    ).toContain(expiring.id);
    // Revising an expired quote starts its validity again from today.
    const rev = await reviseQuote({ ctx: await quoteCtx(ctx, expiring.id), input: { quoteId: expiring.id } });
    expect(rev.validUntil).toBe('2026-12-28'); // today is the 28th in Toronto now
    await expect(openQuoteByToken({ ctx, input: { token: 'A'.repeat(22) } })).rejects.toMatchObject({
      code: 'quote_not_found',
    });
    await expect(openQuoteByToken({ ctx, input: { token: 'nope' } })).rejects.toMatchObject({
      code: 'quote_not_found',
    });
    clock.advance(-(clock.now().getTime() - NOW));
  });

  it("a person's export lists their quotes; a deleted lead takes its quotes with it, and their link stops working", async () => {
    const ctx = world.ctx;
    const lead = await leadOf(world, ws, 'Edsger Dijkstra');
    const sent = await sendQuote({
      ctx: inWorkspace(ctx, ws.workspaceId),
      input: { quoteId: (await draft(lead)).id, by: BY },
    });
    // A person's export lists their quotes, without the link.
    const exported = await exportPerson({
      ctx: inWorkspace(ctx, ws.workspaceId),
      input: { email: 'edsger@example.com' },
    });
    expect(exported.quotes.map((q) => [q.id, q.number, q.total])).toEqual([
      [sent.quote.id, sent.quote.number, sent.quote.total],
    ]);
    expect(JSON.stringify(exported)).not.toContain(sent.token);
    await deleteLead({ ctx: inWorkspace(ctx, ws.workspaceId), input: { id: lead } });
    await expect(openQuoteByToken({ ctx, input: { token: sent.token } })).rejects.toMatchObject({
      code: 'quote_not_found',
    });
    expect(
      await world.store.db.selectFrom('quote_lines').select('id').where('quote_id', '=', sent.quote.id).execute(),
    ).toEqual([]);
  });
});
