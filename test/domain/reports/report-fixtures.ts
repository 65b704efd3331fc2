import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { expect } from 'vitest';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { deleteLead } from '../../../src/domain/leads/delete-lead.js';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { declineQuote } from '../../../src/domain/quotes/decline-quote.js';
import { reviseQuote } from '../../../src/domain/quotes/revise-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { withdrawQuote } from '../../../src/domain/quotes/withdraw-quote.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { createSource } from '../../../src/domain/sources/create-source.js';
import type { TestClock } from '../../helpers/clock.js';
import type { Seeded, TestWorld } from '../../helpers/test-app.js';

export const ZONE = 'America/Toronto';

/** The campaigns leads come through: a page address's utm parameters, or none. */
export const CAMPAIGNS = {
  spring: 'https://bright.test/quote?utm_source=google&utm_medium=cpc&utm_campaign=spring',
  fall: 'https://bright.test/?utm_source=facebook&utm_campaign=fall',
  none: 'https://bright.test/contact',
} as const;
export type Campaign = keyof typeof CAMPAIGNS;

export interface ReportWorld {
  ctx: WorkspaceContext;
  seeded: Seeded;
  /** Three lead sources: the seeded "Website form", "Google Ads page", "Home show". */
  sources: Array<{ id: string; token: string; name: string }>;
}

/** Sets the test's clock to an instant (it moves both ways). */
export function setClock(clock: TestClock, iso: string) {
  clock.advance(Date.parse(iso) - clock.now().getTime());
}

export async function reportWorkspace(world: TestWorld, name: string): Promise<ReportWorld> {
  const seeded = await world.seed(name);
  await updateWorkspaceSettings({
    ctx: world.ctx,
    input: { workspaceId: seeded.workspaceId, currency: 'CAD', locale: 'en-CA', timeZone: ZONE },
  });
  const sources = [{ id: seeded.source.id, token: seeded.source.token, name: 'Website form' }];
  for (const sourceName of ['Google Ads page', 'Home show']) {
    const source = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: seeded.pipelineId, name: sourceName },
    });
    sources.push({ id: source.id, token: source.token, name: sourceName });
  }
  return { ctx: inWorkspace(world.ctx, seeded.workspaceId), seeded, sources };
}

/** A lead through a source's intake, sent from a page with the campaign's utm parameters. */
export async function campaignLead(
  world: TestWorld,
  rw: ReportWorld,
  source: number,
  campaign: Campaign,
  name: string,
): Promise<string> {
  const app = await world.app();
  const res = await app.inject({
    method: 'POST',
    url: `/api/intake/${rw.sources[source]!.token}`,
    payload: { name, email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`, pageUrl: CAMPAIGNS[campaign] },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

export interface SentReportQuote {
  quoteId: string;
  leadId: string;
  token: string;
  revision: number;
}

/** A one-line quote of `price` (a decimal) for a new lead, sent at `at`. */
export async function quoteSentAt(
  world: TestWorld,
  clock: TestClock,
  rw: ReportWorld,
  q: { at: string; source: number; campaign: Campaign; price: string; name: string; email?: string | null },
): Promise<SentReportQuote> {
  setClock(clock, q.at);
  const ctx = world.ctx;
  const leadId = await campaignLead(world, rw, q.source, q.campaign, q.name);
  const quote = await createQuote({ ctx: inWorkspace(ctx, rw.seeded.workspaceId), input: { leadId } });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, quote.id),
    input: { quoteId: quote.id, line: { description: 'Floor sanding', quantity: '1', unit: 'fixed', price: q.price } },
  });
  const sent = await sendQuote({
    ctx: await quoteCtx(ctx, quote.id),
    input: { quoteId: quote.id, by: { userId: null, label: 'test' } },
  });
  return { quoteId: sent.quote.id, leadId, token: sent.token, revision: 1 };
}

/**
 * Three months of a contractor's quotes in Toronto (August to October 2026) from three sources and two campaigns,
 * with a quote of July answered in August, one sent at 23:30 on 31 August (September already in UTC), a revision sent
 * again, a withdrawn one revised and sent again, one in another currency, a lead deleted, and a draft never sent.
 * Answers and changes happen in time order; the clock ends on 20 October 2026.
 */
export async function threeMonthsOfQuotes(world: TestWorld, clock: TestClock, rw: ReportWorld) {
  const ctx = world.ctx;
  const sent = (at: string, source: number, campaign: Campaign, price: string, name: string) =>
    quoteSentAt(world, clock, rw, { at, source, campaign, price, name });
  const accept = async (q: SentReportQuote, at: string) => {
    setClock(clock, at);
    await acceptQuote({ ctx, input: { token: q.token, revision: q.revision, name: 'Customer', agreed: true } });
  };
  const decline = async (q: SentReportQuote, at: string) => {
    setClock(clock, at);
    await declineQuote({ ctx, input: { token: q.token, revision: q.revision } });
  };
  /** A new revision with an extra line of `extra`, sent at `at`. */
  const reviseAndSend = async (q: SentReportQuote, at: string, extra: string) => {
    setClock(clock, at);
    const draft = await reviseQuote({ ctx: await quoteCtx(ctx, q.quoteId), input: { quoteId: q.quoteId } });
    await addQuoteLine({
      ctx: await quoteCtx(ctx, draft.id),
      input: { quoteId: draft.id, line: { description: 'More', quantity: '1', unit: 'fixed', price: extra } },
    });
    const again = await sendQuote({
      ctx: await quoteCtx(ctx, draft.id),
      input: { quoteId: draft.id, by: { userId: null, label: 'test' } },
    });
    q.quoteId = again.quote.id;
    q.revision = again.quote.revision;
  };
  const withdraw = async (q: SentReportQuote, at: string) => {
    setClock(clock, at);
    await withdrawQuote({ ctx: await quoteCtx(ctx, q.quoteId), input: { quoteId: q.quoteId } });
  };

  const k = await sent('2026-07-20T15:00:00Z', 0, 'spring', '450.00', 'July Kowalski');
  await accept(k, '2026-08-01T15:00:00Z');
  const a = await sent('2026-08-03T14:00:00Z', 0, 'spring', '1000.00', 'Ada August');
  await accept(a, '2026-08-05T20:00:00Z');
  const b = await sent('2026-08-10T13:00:00Z', 1, 'spring', '2000.00', 'Ben August');
  await decline(b, '2026-08-10T21:00:00Z');
  // 23:30 in Toronto on 31 August is 03:30 UTC on 1 September: counted in August.
  await sent('2026-09-01T03:30:00Z', 2, 'fall', '1500.00', 'Cleo Late');
  const d = await sent('2026-09-02T14:00:00Z', 0, 'none', '500.00', 'Dan September');
  await reviseAndSend(d, '2026-09-04T14:00:00Z', '200.00');
  await accept(d, '2026-09-09T14:00:00Z');
  const e = await sent('2026-09-15T14:00:00Z', 1, 'fall', '800.00', 'Eve September');
  await withdraw(e, '2026-09-20T14:00:00Z');
  const f = await sent('2026-09-20T15:00:00Z', 2, 'spring', '1200.00', 'Fay September');
  await withdraw(f, '2026-09-21T14:00:00Z');
  await reviseAndSend(f, '2026-09-22T14:00:00Z', '100.00');
  await accept(f, '2026-09-25T14:00:00Z');
  const g = await sent('2026-10-01T14:00:00Z', 0, 'fall', '900.00', 'Gus October');
  await decline(g, '2026-10-04T14:00:00Z');
  const h = await sent('2026-10-05T14:00:00Z', 1, 'none', '400.00', 'Hal October');
  await accept(h, '2026-10-06T14:00:00Z');
  await sent('2026-10-10T14:00:00Z', 2, 'spring', '600.00', 'Ida October');
  // A quote made while the workspace priced in EUR: counted, its value apart.
  setClock(clock, '2026-10-12T13:00:00Z');
  await updateWorkspaceSettings({ ctx, input: { workspaceId: rw.seeded.workspaceId, currency: 'EUR' } });
  const j = await sent('2026-10-12T14:00:00Z', 0, 'spring', '300.00', 'Jo Euro');
  await updateWorkspaceSettings({ ctx, input: { workspaceId: rw.seeded.workspaceId, currency: 'CAD' } });
  await accept(j, '2026-10-13T14:00:00Z');
  // A lead deleted takes its quote out of the lists and of the report.
  const l = await sent('2026-10-14T14:00:00Z', 1, 'spring', '700.00', 'Lou Deleted');
  await deleteLead({ ctx: inWorkspace(ctx, rw.seeded.workspaceId), input: { id: l.leadId } });
  // A draft is no quote sent.
  setClock(clock, '2026-10-15T14:00:00Z');
  const lead = await campaignLead(world, rw, 0, 'spring', 'Max Draft');
  await createQuote({ ctx: await leadCtx(ctx, lead), input: { leadId: lead } });
  setClock(clock, '2026-10-20T16:00:00Z');
}
