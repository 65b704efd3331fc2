import { leadCtx, quoteCtx } from '../helpers/contexts.js';
import { inWorkspace } from '../../src/domain/context.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { addQuoteSection } from '../../src/domain/quotes/add-quote-section.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { moveLineToSection } from '../../src/domain/quotes/move-line-to-section.js';
import { offerChoice } from '../../src/domain/quotes/offer-choice.js';
import { renameQuoteSection } from '../../src/domain/quotes/rename-quote-section.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { setQuoteDeposit } from '../../src/domain/quotes/set-quote-deposit.js';
import type { QuoteView } from '../../src/domain/quotes/quote-view.js';
import type { Seeded, TestWorld } from '../helpers/test-app.js';
import { leadOf } from '../domain/quotes/quote-fixtures.js';
import type { SentTestQuote } from './quote-fixtures.js';

/**
 * A floor quote with a choice, in a workspace of `quotingWorkspace` (CAD, GST 5 %, QST 9.975 %, both on every line):
 * Preparation ($200 fixed), then "Choose one": Oak engineered (20 m² × $60 = $1,200, recommended) or Laminate
 * (20 m² × $25 = $500); a 30 % deposit. Worked by hand:
 * - oak: subtotal $1,400.00, GST $70.00, QST $139.65, total $1,609.65, deposit 30 % = $482.895 → $482.90;
 * - laminate: subtotal $700.00, GST $35.00, QST $69.825 → $69.83, total $804.83, deposit $241.449 → $241.45.
 * Answers the draft when `send` is false.
 */
export async function draftWithChoice(
  world: TestWorld,
  ws: { seeded: Seeded },
  customer = 'Grace Hopper',
): Promise<QuoteView> {
  const ctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
  const leadId = await leadOf(world, ws.seeded, customer);
  let quote = await createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId } });
  const line = async (description: string, quantity: string, unit: string, price: string) =>
    (quote = await addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description, quantity, unit, price } },
    }));
  await line('Remove the old floor', '1', 'fixed', '200');
  quote = await renameQuoteSection({
    ctx,
    input: { quoteId: quote.id, sectionId: quote.sections[0]!.id, title: 'Preparation' },
  });
  for (const [title, description, price] of [
    ['Oak engineered', 'Oak engineered flooring, laid', '60'],
    ['Laminate', 'Laminate flooring, laid', '25'],
  ] as const) {
    quote = await addQuoteSection({ ctx, input: { quoteId: quote.id, title } });
    await line(description, '20', 'm2', price);
    quote = await moveLineToSection({
      ctx,
      input: { quoteId: quote.id, lineId: quote.lines.at(-1)!.id, sectionId: quote.sections.at(-1)!.id },
    });
  }
  const [, oak, laminate] = quote.sections.map((s) => s.id) as [string, string, string];
  quote = await offerChoice({ ctx, input: { quoteId: quote.id, sectionIds: [oak, laminate], recommendedId: oak } });
  return setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: '30%' } });
}

/** `draftWithChoice`, sent. */
export async function sentWithChoice(
  world: TestWorld,
  ws: { seeded: Seeded; senderId: string },
  customer?: string,
): Promise<SentTestQuote & { oak: string; laminate: string }> {
  const draft = await draftWithChoice(world, ws, customer);
  const sent = await sendQuote({
    ctx: await quoteCtx(world.ctx, draft.id),
    input: { quoteId: draft.id, by: { userId: ws.senderId, label: 'sender' } },
  });
  return {
    quoteId: sent.quote.id,
    leadId: draft.leadId,
    token: sent.token,
    url: new URL(sent.customerUrl).pathname,
    oak: draft.sections[1]!.id,
    laminate: draft.sections[2]!.id,
  };
}
