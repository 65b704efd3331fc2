import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../../src/domain/quotes/update-quote.js';
import type { LineFields } from '../../../src/domain/quotes/line-fields.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import type { Seeded, TestWorld } from '../../helpers/test-app.js';
import { leadOf } from '../quotes/quote-fixtures.js';

/**
 * The quote of the worked example (docs/invoices.md, "Deposits"), CAD with GST 5 % and QST 9.975 %:
 * 23.16 m² of oak at 42.50 (984.30), 8 h of labour at 65.00 (520.00) and a discount of 50.00, all GST + QST, and a
 * disposal fee of 75.00 with GST only. Subtotal 1,529.30, GST 76.47, QST 145.07, total 1,750.84; 30 % deposit 525.25.
 * An optional line left unticked does not count.
 */
export const EXAMPLE_LINES: LineFields[] = [
  { description: 'Oak flooring', quantity: '23.16', unit: 'm2', price: '42.50', taxes: ['GST', 'QST'] },
  { description: 'Labour', quantity: '8', unit: 'hour', price: '65.00', taxes: ['GST', 'QST'] },
  { description: 'Disposal fee', quantity: '1', unit: 'fixed', price: '75.00', taxes: ['GST'] },
  { description: 'Loyalty discount', quantity: '1', unit: 'fixed', price: '-50.00', taxes: ['GST', 'QST'] },
  {
    description: 'Skirting boards',
    quantity: '14.6',
    unit: 'm',
    price: '12.00',
    taxes: ['GST', 'QST'],
    optional: true,
    chosen: false,
  },
];

/**
 * A quote sent by the workspace's sender and accepted by the customer through its link, with `deposit` as the
 * workspace's default for new quotes at its making ('30%', '500.00' or 'none').
 */
export async function acceptedQuote(
  world: TestWorld,
  ws: { seeded: Seeded; senderId: string },
  options: { deposit?: string; lines?: LineFields[]; customer?: string; email?: string } = {},
): Promise<{ quoteId: string; leadId: string; token: string }> {
  const ctx = world.ctx;
  await updateWorkspaceSettings({
    ctx,
    input: { workspaceId: ws.seeded.workspaceId, deposit: options.deposit ?? 'none' },
  });
  const leadId = await leadOf(world, ws.seeded, options.customer ?? 'Ada Lovelace');
  const draft = await createQuote({ ctx: await leadCtx(ctx, leadId), input: { leadId } });
  for (const line of options.lines ?? EXAMPLE_LINES)
    await addQuoteLine({ ctx: await quoteCtx(ctx, draft.id), input: { quoteId: draft.id, line } });
  await updateQuote({
    ctx: await quoteCtx(ctx, draft.id),
    input: {
      quoteId: draft.id,
      details: { title: 'Floors', customerEmail: options.email ?? 'ada@customer.test' },
    },
  });
  const sent = await sendQuote({
    ctx: await quoteCtx(ctx, draft.id),
    input: { quoteId: draft.id, by: { userId: ws.senderId, label: 'sender' } },
  });
  await acceptQuote({ ctx, input: { token: sent.token, revision: 1, name: 'Ada Lovelace', agreed: true } });
  return { quoteId: draft.id, leadId, token: sent.token };
}
