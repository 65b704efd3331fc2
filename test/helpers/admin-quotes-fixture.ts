import { inWorkspace } from '../../src/domain/context.js';
import type { DomainContext } from '../../src/domain/context.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';

/**
 * What the Price list and quote routes need in each workspace: a price-list item, a draft quote with one line, and a
 * sent quote (for Revise, Withdraw, Copy).
 */
export async function quotesFixtureExtra(
  ctx: DomainContext,
  home: { workspaceId: string; leadId: string; userId: string },
  away: { workspaceId: string; leadId: string; userId: string },
): Promise<Record<string, string>> {
  const one = async (w: typeof home) => {
    const item = await addPriceListItem({
      ctx,
      input: { workspaceId: w.workspaceId, role: 'owner', item: { name: 'Paint', unit: 'm2', price: '12.50' } },
    });
    const draft = await createQuote({ ctx: inWorkspace(ctx, w.workspaceId), input: { leadId: w.leadId } });
    const withLine = await addQuoteLine({
      ctx: inWorkspace(ctx, w.workspaceId),
      input: {
        quoteId: draft.id,
        line: { description: 'Labour', quantity: '2', unit: 'hour', price: '40' },
      },
    });
    const toSend = await createQuote({ ctx: inWorkspace(ctx, w.workspaceId), input: { leadId: w.leadId } });
    await addQuoteLine({
      ctx: inWorkspace(ctx, w.workspaceId),
      input: {
        quoteId: toSend.id,
        line: { description: 'Visit', quantity: '1', unit: 'fixed', price: '50' },
      },
    });
    const sent = await sendQuote({
      ctx: inWorkspace(ctx, w.workspaceId),
      input: { quoteId: toSend.id, by: { userId: w.userId, label: 'Owner' } },
    });
    return { itemId: item.id, draftId: draft.id, lineId: withLine.lines[0]!.id, sentId: sent.quote.id };
  };
  const h = await one(home);
  const a = await one(away);
  return {
    homeItemId: h.itemId,
    awayItemId: a.itemId,
    homeDraftId: h.draftId,
    awayDraftId: a.draftId,
    homeLineId: h.lineId,
    awayLineId: a.lineId,
    homeSentId: h.sentId,
    awaySentId: a.sentId,
  };
}
