import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inWorkspace, type DomainContext } from '../../../src/domain/context.js';
import { isAppError } from '../../../src/domain/errors.js';
import { acceptanceHash } from '../../../src/domain/quotes/acceptance-hash.js';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { openQuoteByToken } from '../../../src/domain/quotes/customer-quote.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';
import type { QuoteView } from '../../../src/domain/quotes/quote-view.js';
import { reviseQuote } from '../../../src/domain/quotes/revise-quote.js';
import { saveQuote } from '../../../src/domain/quotes/save-quote.js';
import { sendQuote, type SentQuote } from '../../../src/domain/quotes/send-quote.js';
import { withdrawQuote } from '../../../src/domain/quotes/withdraw-quote.js';
import { createDomainContext } from '../../../src/runtime.js';
import { openDatabase, type Database } from '../../../src/storage/database.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';
import { leadOf, quoteWorkspace } from './quote-fixtures.js';

const BY = { userId: null, label: 'cli' };

/**
 * Every pair of quote verbs that touch one quote, run at once many times (docs/security.md, "Document states"): on
 * PostgreSQL through two app instances on one database (each its own pool and commit batcher, as two processes),
 * on SQLite through one. After each race the invariants hold: a sent revision's content (its acceptance hash) is what
 * its send answered, emailed and audited, and never changes; a quote has at most one answer; what each caller was
 * told is what is stored; the audit log records exactly the moves that happened.
 */
describeEachBackend('quote verbs racing on one quote', (backend) => {
  /** Bounded so the file stays well under a minute on a loaded 2-core machine. */
  const ROUNDS = backend === 'postgres' ? 10 : 3;
  let world: TestWorld;
  let second: Database | undefined;
  let ctxs: [DomainContext, DomainContext];
  let ws: Seeded;
  let lead: string;
  beforeAll(async () => {
    world = await createWorld(backend);
    if (backend === 'postgres') second = openDatabase(world.config.database);
    ctxs = [
      world.ctx,
      second ? createDomainContext({ config: world.config, store: second, appSecret: world.appSecret }) : world.ctx,
    ];
    ws = await quoteWorkspace(world, 'Races');
    lead = await leadOf(world, ws);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await world.close();
  });

  const draft = async () => {
    const quote = await createQuote({ ctx: await leadCtx(world.ctx, lead), input: { leadId: lead } });
    return addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Labour', quantity: '8', unit: 'hour', price: '65' } },
    });
  };
  const send = async (ctx: DomainContext, quoteId: string) =>
    sendQuote({ ctx: await quoteCtx(ctx, quoteId), input: { quoteId, by: BY } });
  const accept = (ctx: DomainContext, token: string, revision: number) =>
    acceptQuote({ ctx, input: { token, revision, name: 'Ada Lovelace', agreed: true } });
  /** The builder's Save: a changed line and a new one, as one form post. */
  const save = (ctx: DomainContext, quote: QuoteView) =>
    saveQuote({
      ctx: inWorkspace(ctx, ws.workspaceId),
      input: {
        quoteId: quote.id,
        details: { title: 'Saved' },
        lines: [
          {
            lineId: quote.lines[0]!.id,
            line: { description: 'Labour', quantity: '8', unit: 'hour', price: '70', taxes: ['GST', 'QST'] },
          },
        ],
        newLine: { description: 'Extra', quantity: '1', unit: 'fixed', price: '100' },
      },
    });
  const stored = async (quoteId: string) =>
    getQuote({ ctx: await quoteCtx(world.ctx, quoteId), input: { ref: quoteId } });
  const audits = async (quoteId: string, action: string) =>
    (
      await world.store.db
        .selectFrom('audit_log')
        .select(['target_ids', 'details'])
        .where('action', '=', action)
        .where('target_ids', 'like', `["${quoteId}"%`)
        .execute()
    ).map((a) => JSON.parse(a.details) as { total?: number; revision?: number });
  const codeOf = (outcome: PromiseSettledResult<unknown>) =>
    outcome.status === 'fulfilled' ? 'ok' : isAppError(outcome.reason) ? outcome.reason.code : outcome.reason;
  /** Two calls at once, each from its own instance, either one started first. */
  const race = async <A, B>(
    a: (ctx: DomainContext) => Promise<A>,
    b: (ctx: DomainContext) => Promise<B>,
    round: number,
  ) => {
    const [ca, cb] = round % 2 === 0 ? ctxs : [ctxs[1], ctxs[0]];
    return Promise.allSettled([a(ca), b(cb)]) as Promise<[PromiseSettledResult<A>, PromiseSettledResult<B>]>;
  };
  /** A sent revision as stored is what its send answered: the same content, hash and audited total. */
  const sentAsAnswered = async (answer: SentQuote) => {
    const now = await stored(answer.quote.id);
    expect(acceptanceHash(now), `${answer.quote.id} changed after its send`).toBe(acceptanceHash(answer.quote));
    expect(await audits(answer.quote.id, 'quote.sent')).toEqual([
      { revision: answer.quote.revision, total: answer.quote.total },
    ]);
  };

  it('save × send: the send carries the save entirely or not at all, and a refused save commits nothing', async () => {
    const seen = new Set<string>();
    for (let round = 0; round < ROUNDS; round += 1) {
      const quote = await draft();
      const [saved, sent] = await race(
        (ctx) => save(ctx, quote),
        (ctx) => send(ctx, quote.id),
        round,
      );
      expect(codeOf(sent)).toBe('ok');
      const answer = (sent as PromiseFulfilledResult<SentQuote>).value;
      await sentAsAnswered(answer);
      if (saved.status === 'fulfilled') {
        seen.add('save first');
        expect(answer.quote.total).toBe(saved.value.total);
        expect(answer.quote.lines.map((l) => l.description)).toEqual(['Labour', 'Extra']);
      } else {
        seen.add('send first');
        expect(codeOf(saved)).toBe('quote_not_editable');
        expect(answer.quote.total).toBe(quote.total);
        expect(answer.quote.title).toBeNull();
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  }, 60_000);

  it('send × send: one send, one number, one audit; the other is told it was sent meanwhile', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const quote = await draft();
      const outcomes = await race(
        (ctx) => send(ctx, quote.id),
        (ctx) => send(ctx, quote.id),
        round,
      );
      expect(outcomes.map(codeOf).sort()).toEqual(['ok', 'quote_not_editable']);
      const answer = outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<SentQuote>;
      await sentAsAnswered(answer.value);
      expect((await stored(quote.id)).number).toBe(answer.value.quote.number);
    }
  }, 60_000);

  it('withdraw × accept: exactly one wins, the loser is told why, and the audit says what happened', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = await send(world.ctx, (await draft()).id);
      const [withdrawn, accepted] = await race(
        async (ctx) => withdrawQuote({ ctx: await quoteCtx(ctx, first.quote.id), input: { quoteId: first.quote.id } }),
        (ctx) => accept(ctx, first.token, 1),
        round,
      );
      const now = await stored(first.quote.id);
      if (withdrawn.status === 'fulfilled') {
        expect(codeOf(accepted)).toBe('quote_link_unusable');
        expect(now.status).toBe('withdrawn');
        expect(withdrawn.value.status).toBe('withdrawn');
      } else {
        expect(codeOf(withdrawn)).toBe('quote_final');
        expect(codeOf(accepted)).toBe('ok');
        expect(now.status).toBe('accepted');
      }
      expect((await audits(first.quote.id, 'quote.withdrawn')).length).toBe(withdrawn.status === 'fulfilled' ? 1 : 0);
      expect((await audits(first.quote.id, 'quote.accepted')).length).toBe(accepted.status === 'fulfilled' ? 1 : 0);
      await sentAsAnswered(first);
    }
  }, 60_000);

  it('revise × accept: the accept always holds; a revision made first can never be sent', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = await send(world.ctx, (await draft()).id);
      const [revised, accepted] = await race(
        async (ctx) => reviseQuote({ ctx: await quoteCtx(ctx, first.quote.id), input: { quoteId: first.quote.id } }),
        (ctx) => accept(ctx, first.token, 1),
        round,
      );
      expect(codeOf(accepted)).toBe('ok');
      expect((await stored(first.quote.id)).status).toBe('accepted');
      if (revised.status === 'fulfilled') {
        expect(revised.value).toMatchObject({ revision: 2, status: 'draft' });
        await expect(send(world.ctx, revised.value.id)).rejects.toMatchObject({ code: 'quote_final' });
      } else {
        expect(codeOf(revised)).toBe('quote_final');
      }
      expect(
        (await audits(revised.status === 'fulfilled' ? revised.value.id : first.quote.id, 'quote.revised')).length,
      ).toBe(revised.status === 'fulfilled' ? 1 : 0);
      const page = await openQuoteByToken({ ctx: world.ctx, input: { token: first.token } });
      expect({ state: page.state, revision: page.quote.revision }).toEqual({ state: 'accepted', revision: 1 });
      await sentAsAnswered(first);
    }
  }, 60_000);

  it('send rev 2 × accept rev 1: exactly one wins, the link shows the winner, one answer at most', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = await send(world.ctx, (await draft()).id);
      const rev2 = await reviseQuote({
        ctx: await quoteCtx(world.ctx, first.quote.id),
        input: { quoteId: first.quote.id },
      });
      const [sent, accepted] = await race(
        (ctx) => send(ctx, rev2.id),
        (ctx) => accept(ctx, first.token, 1),
        round,
      );
      const page = await openQuoteByToken({ ctx: world.ctx, input: { token: first.token } });
      const chain = await world.store.db
        .selectFrom('quotes')
        .select(['revision', 'status'])
        .where('chain_id', '=', first.quote.id)
        .orderBy('revision')
        .execute();
      if (sent.status === 'fulfilled') {
        expect(codeOf(accepted)).toBe('quote_updated');
        expect(chain.map((r) => r.status)).toEqual(['replaced', 'sent']);
        expect({ state: page.state, revision: page.quote.revision }).toEqual({ state: 'open', revision: 2 });
        await sentAsAnswered(sent.value);
      } else {
        expect(codeOf(sent)).toBe('quote_final');
        expect(codeOf(accepted)).toBe('ok');
        expect(chain.map((r) => r.status)).toEqual(['accepted', 'draft']);
        expect({ state: page.state, revision: page.quote.revision }).toEqual({ state: 'accepted', revision: 1 });
        expect(await audits(rev2.id, 'quote.sent')).toEqual([]);
      }
      expect(chain.filter((r) => r.status === 'accepted' || r.status === 'declined').length).toBe(
        accepted.status === 'fulfilled' ? 1 : 0,
      );
      await sentAsAnswered(first);
    }
  }, 60_000);
});
