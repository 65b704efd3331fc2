import { leadCtx, quoteCtx } from '../helpers/contexts.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../src/domain/quotes/update-quote.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createUser } from '../../src/domain/users/create-user.js';
import type { Seeded, TestWorld } from '../helpers/test-app.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { leadOf, scanOf } from '../domain/quotes/quote-fixtures.js';

/** A workspace as a contractor sets it up for quotes: CAD, GST and QST, business details, a sender. */
export async function quotingWorkspace(
  world: TestWorld,
  name: string,
  extra: { businessName?: string; address?: string; taxNumber?: string } = {},
) {
  const seeded = await world.seed(name);
  await updateWorkspaceSettings({
    ctx: world.ctx,
    input: {
      workspaceId: seeded.workspaceId,
      currency: 'CAD',
      locale: 'en-CA',
      timeZone: 'America/Toronto',
      taxes: [
        { name: 'GST', rate: '5' },
        { name: 'QST', rate: '9.975' },
      ],
      quoteTerms: 'Half up front, the rest on completion.',
      businessAddress: extra.address ?? '200 Rue Sainte-Catherine\nMontréal QC H2X 1L1',
      businessPhone: '+1 514 555 0100',
      businessEmail: 'hello@renovations.test',
      taxNumbers: [{ name: 'GST/HST', value: extra.taxNumber ?? '123456789 RT0001' }],
      ...(extra.businessName ? { name: extra.businessName } : {}),
    },
  });
  const sender = await createUser({
    ctx: world.ctx,
    input: {
      email: `sender@${name.toLowerCase().replace(/[^a-z]/g, '')}.test`,
      workspaceId: seeded.workspaceId,
      role: 'owner',
    },
  });
  return { seeded, senderId: sender.userId, senderEmail: sender.email };
}

export interface SentTestQuote {
  quoteId: string;
  leadId: string;
  token: string;
  url: string;
}

/** A quote with a labour line, a discount and an optional line (left unticked), sent through the domain verbs. */
export async function sentQuote(
  world: TestWorld,
  ws: { seeded: Seeded; senderId: string },
  texts: {
    customer?: string;
    title?: string;
    description?: string;
    note?: string;
    terms?: string;
    email?: string;
    scan?: boolean;
  } = {},
): Promise<SentTestQuote> {
  const ctx = world.ctx;
  const leadId = await leadOf(world, ws.seeded, texts.customer ?? 'Ada Lovelace');
  // With a scan: a "Floor sanding" line per room (Kitchen 13.02 m², Hall 7.5 m²) measured from the lead's scan.
  const scanId = texts.scan ? await scanOf(world, ws.seeded, leadId) : undefined;
  const item = texts.scan
    ? await addPriceListItem({
        ctx,
        input: {
          workspaceId: ws.seeded.workspaceId,
          role: 'owner',
          item: { name: 'Floor sanding', unit: 'm2', price: '12.00', measure: 'floor_area' },
        },
      })
    : undefined;
  const quote = await createQuote({
    ctx: await leadCtx(ctx, leadId),
    input: { leadId, ...(scanId && item ? { scanIds: [scanId], itemIds: [item.id] } : {}) },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, quote.id),
    input: {
      quoteId: quote.id,
      line: {
        description: texts.description ?? 'Paint the kitchen: two coats',
        quantity: '8',
        unit: 'hour',
        price: '65',
      },
    },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, quote.id),
    input: {
      quoteId: quote.id,
      line: { description: 'Loyalty discount', quantity: '1', unit: 'fixed', price: '-20', taxes: ['GST'] },
    },
  });
  await addQuoteLine({
    ctx: await quoteCtx(ctx, quote.id),
    input: {
      quoteId: quote.id,
      line: {
        description: 'Ceiling, one coat',
        quantity: '13.02',
        unit: 'm2',
        price: '4.50',
        optional: true,
        chosen: false,
      },
    },
  });
  await updateQuote({
    ctx: await quoteCtx(ctx, quote.id),
    input: {
      quoteId: quote.id,
      details: {
        title: texts.title ?? 'Kitchen repaint',
        note: texts.note ?? 'Thank you for having us over.',
        ...(texts.terms !== undefined ? { terms: texts.terms } : {}),
        ...(texts.email !== undefined ? { customerEmail: texts.email } : {}),
      },
    },
  });
  const sent = await sendQuote({
    ctx: await quoteCtx(ctx, quote.id),
    input: { quoteId: quote.id, by: { userId: ws.senderId, label: 'sender' } },
  });
  return { quoteId: sent.quote.id, leadId, token: sent.token, url: new URL(sent.customerUrl).pathname };
}
