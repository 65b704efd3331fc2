import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { inWorkspace } from '../../../src/domain/context.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { openQuoteByToken } from '../../../src/domain/quotes/customer-quote.js';
import { declineQuote } from '../../../src/domain/quotes/decline-quote.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';
import { reviseQuote } from '../../../src/domain/quotes/revise-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { withdrawQuote } from '../../../src/domain/quotes/withdraw-quote.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';
import { leadOf, quoteWorkspace } from './quote-fixtures.js';

const BY = { userId: null, label: 'cli' };

/**
 * The states of a quote and the moves between them (docs/security.md, "Document states"), one verb after another:
 * an answered quote stays answered whatever revision is sent next, a customer's answer moves the lead forward only,
 * and a quote worth less than nothing is not sent.
 */
describeEachBackend('quote states: answered is final, the lead moves forward only', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await quoteWorkspace(world, 'States');
  });
  afterAll(async () => {
    await world.close();
  });

  const draft = async (leadId: string, price = '65') => {
    const quote = await createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId } });
    return addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Labour', quantity: '8', unit: 'hour', price } },
    });
  };
  const sent = async (leadId: string) =>
    sendQuote({
      ctx: inWorkspace(world.ctx, ws.workspaceId),
      input: { quoteId: (await draft(leadId)).id, by: BY },
    });
  const stageOf = async (leadId: string) =>
    (await world.store.db.selectFrom('leads').select('stage').where('id', '=', leadId).executeTakeFirstOrThrow()).stage;
  const accept = (token: string, revision = 1) =>
    acceptQuote({ ctx: world.ctx, input: { token, revision, name: 'Ada Lovelace', agreed: true } });
  const decline = (token: string, revision = 1) =>
    declineQuote({ ctx: world.ctx, input: { token, revision, reason: 'Too dear' } });

  for (const answer of ['accepted', 'declined'] as const) {
    it(`a revision drafted before the customer ${answer} rev 1 cannot be sent: quote_final, the link keeps the answer`, async () => {
      const lead = await leadOf(world, ws, `Reopen ${answer}`);
      const first = await sent(lead);
      const rev2 = await reviseQuote({
        ctx: await quoteCtx(world.ctx, first.quote.id),
        input: { quoteId: first.quote.id },
      });
      await (answer === 'accepted' ? accept(first.token) : decline(first.token));
      await expect(
        sendQuote({ ctx: await quoteCtx(world.ctx, rev2.id), input: { quoteId: rev2.id, by: BY } }),
      ).rejects.toMatchObject({
        code: 'quote_final',
        detail: expect.stringMatching(new RegExp(`${answer}`)),
      });
      const page = await openQuoteByToken({ ctx: world.ctx, input: { token: first.token } });
      expect({ state: page.state, revision: page.quote.revision }).toEqual({ state: answer, revision: 1 });
      expect((await getQuote({ ctx: await quoteCtx(world.ctx, rev2.id), input: { ref: rev2.id } })).status).toBe(
        'draft',
      );
      // Nothing of the refused send stayed: no number on the draft's own row beyond the chain's, no second answer.
      const chain = await world.store.db
        .selectFrom('quotes')
        .select(['revision', 'status', 'sent_at'])
        .where('chain_id', '=', first.quote.id)
        .orderBy('revision')
        .execute();
      expect(chain.map((r) => [Number(r.revision), r.status, r.sent_at === null])).toEqual([
        [1, answer, false],
        [2, 'draft', true],
      ]);
      const audits = await world.store.db
        .selectFrom('audit_log')
        .select('action')
        .where('target_ids', 'like', `%${rev2.id}%`)
        .where('action', '=', 'quote.sent')
        .execute();
      expect(audits).toEqual([]);
    });
  }

  it('withdraw after the customer accepted answers quote_final, "the customer accepted it first"', async () => {
    const lead = await leadOf(world, ws, 'Withdraw late');
    const first = await sent(lead);
    await accept(first.token);
    await expect(
      withdrawQuote({ ctx: await quoteCtx(world.ctx, first.quote.id), input: { quoteId: first.quote.id } }),
    ).rejects.toMatchObject({
      code: 'quote_final',
      detail: expect.stringMatching(/the customer accepted it first/i),
    });
  });

  it('an answer posted for a revision that a withdraw took back says withdrawn; for one replaced, updated', async () => {
    const lead = await leadOf(world, ws, 'Answer late');
    const first = await sent(lead);
    const rev2 = await reviseQuote({
      ctx: await quoteCtx(world.ctx, first.quote.id),
      input: { quoteId: first.quote.id },
    });
    await sendQuote({ ctx: await quoteCtx(world.ctx, rev2.id), input: { quoteId: rev2.id, by: BY } });
    await expect(accept(first.token, 1)).rejects.toMatchObject({ code: 'quote_updated' });
    await withdrawQuote({ ctx: await quoteCtx(world.ctx, rev2.id), input: { quoteId: rev2.id } });
    await expect(accept(first.token, 2)).rejects.toMatchObject({ code: 'quote_link_unusable' });
  });

  it('a quote whose total is negative is refused at Send (negative_total), with what to do about it', async () => {
    const lead = await leadOf(world, ws, 'Negative');
    const quote = await draft(lead, '-13.13');
    await expect(
      sendQuote({ ctx: await quoteCtx(world.ctx, quote.id), input: { quoteId: quote.id, by: BY } }),
    ).rejects.toMatchObject({
      code: 'negative_total',
      detail: expect.stringMatching(/total .*below zero.*/i),
    });
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, quote.id), input: { ref: quote.id } })).status).toBe(
      'draft',
    );
    // A discount that leaves the total at zero or above is fine.
    const fine = await addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Paint', quantity: '1', unit: 'fixed', price: '200' } },
    });
    expect(fine.total).toBeGreaterThanOrEqual(0);
    expect(
      (await sendQuote({ ctx: await quoteCtx(world.ctx, quote.id), input: { quoteId: quote.id, by: BY } })).quote
        .status,
    ).toBe('sent');
  });

  it('two quotes of one lead, accepted then declined: the lead stays Won', async () => {
    const lead = await leadOf(world, ws, 'Accept then decline');
    const [q1, q2] = [await sent(lead), await sent(lead)];
    await accept(q1.token);
    expect(await stageOf(lead)).toBe('won');
    await decline(q2.token);
    expect(await stageOf(lead)).toBe('won');
    const history = await world.store.db
      .selectFrom('stage_history')
      .select(['from_stage', 'to_stage', 'by_label'])
      .where('lead_id', '=', lead)
      .orderBy('moved_at')
      .orderBy('id')
      .execute();
    expect(history.map((h) => `${h.from_stage}→${h.to_stage} by ${h.by_label}`)).toEqual([
      'inbox→quoted by cli',
      'quoted→won by customer',
    ]);
  });

  it('two quotes of one lead, declined then accepted: Lost, then Won', async () => {
    const lead = await leadOf(world, ws, 'Decline then accept');
    const [q1, q2] = [await sent(lead), await sent(lead)];
    await decline(q2.token);
    expect(await stageOf(lead)).toBe('lost');
    await accept(q1.token);
    expect(await stageOf(lead)).toBe('won');
  });

  it('a decline leaves a lead a person moved to Won where it is, and one in a stage after Won too', async () => {
    const lead = await leadOf(world, ws, 'Won by hand');
    const q = await sent(lead);
    await world.store.db.updateTable('leads').set({ stage: 'won' }).where('id', '=', lead).execute();
    await decline(q.token);
    expect(await stageOf(lead)).toBe('won');
  });
});
