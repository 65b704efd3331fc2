import { quoteCtx } from '../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { inWorkspace } from '../../src/domain/context.js';
import { createInvoiceFromQuote } from '../../src/domain/invoices/create-invoice-from-quote.js';
import { acceptanceHash, acceptanceVerifies } from '../../src/domain/quotes/acceptance-hash.js';
import { renderDueDocuments } from '../../src/domain/documents/document-jobs.js';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { quotePdf } from '../../src/domain/quotes/quote-pdf.js';
import { quoteFormToken } from '../../src/web/quote/quote-routes.js';
import { describeEachBackend } from '../helpers/backends.js';
import { pdfText } from '../helpers/pdf-text.js';
import { quoteEmailContent, renderQuoteEmail } from '../../src/domain/notifications/quote-emails.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { sentWithChoice } from './alternatives-fixtures.js';
import { quotingWorkspace, type SentTestQuote } from './quote-fixtures.js';

const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};

describeEachBackend("alternatives on the customer's page", (backend) => {
  let world: TestWorld;
  let app: App;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    world = await createWorld(backend);
    app = await world.app();
    ws = await quotingWorkspace(world, 'Floors');
  });
  afterAll(async () => {
    await world.close();
  });

  const post = (q: SentTestQuote, fields: Record<string, string>) => {
    const body = new URLSearchParams({ formToken: quoteFormToken(world.ctx, q.token), ...fields });
    return app.inject({ method: 'POST', url: q.url, headers: FORM, payload: body.toString() });
  };
  /** The figures the page shows, in order: section subtotals, subtotal, taxes, total, deposit. */
  const figures = (page: string) => ({
    subtotal: /data-subtotal>([^<]+)</.exec(page)?.[1],
    total: /data-total>([^<]+)</.exec(page)?.[1],
    deposit: /data-deposit[^>]*>([^<]+)</.exec(page)?.[1],
    checked: /value="(qsc_[^"]+)" checked/.exec(page)?.[1],
  });

  it('shows the sections with subtotals and the choice, the recommended one taken, and the deposit', async () => {
    const q = await sentWithChoice(world, ws);
    const page = (await app.inject({ method: 'GET', url: q.url })).body;
    expect(page).toContain('Choose one: Oak engineered · Laminate');
    expect(page).toContain('Preparation');
    expect(page).toContain('Recommended');
    expect(page).toContain('Deposit due on acceptance');
    // Each section's subtotal, whether taken or not, so the alternatives compare.
    expect(page).toMatch(
      /Subtotal · Oak engineered<\/td>(<td[^>]*><\/td>)*<td class="num" data-section-subtotal>\$1,200\.00/,
    );
    expect(page).toMatch(/Subtotal · Laminate<\/td>(<td[^>]*><\/td>)*<td class="num" data-section-subtotal>\$500\.00/);
    expect(figures(page)).toEqual({ subtotal: '$1,400.00', total: '$1,609.65', deposit: '$482.90', checked: q.oak });
    expect(page).toContain('data-update');
  });

  it('Update shows the totals of the alternative picked without the script, and keeps nothing', async () => {
    const q = await sentWithChoice(world, ws);
    const res = await post(q, { do: 'accept', revision: '1', update: '1', 'alt-c1': q.laminate, name: 'Grace' });
    expect(res.statusCode).toBe(200);
    expect(figures(res.body)).toEqual({
      subtotal: '$700.00',
      total: '$804.83',
      deposit: '$241.45',
      checked: q.laminate,
    });
    expect(res.body).toContain('value="Grace"');
    const stored = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(stored.status).toBe('sent');
    expect(stored.sections.find((s) => s.id === q.oak)!.chosen).toBe(true);
  });

  it('accepting keeps the alternative taken, in the hash (version 2); the invoices take it', async () => {
    const q = await sentWithChoice(world, ws);
    const res = await post(q, {
      do: 'accept',
      revision: '1',
      name: 'Grace Hopper',
      agreed: 'yes',
      linesShown: '1',
      'alt-c1': q.laminate,
    });
    expect(res.statusCode).toBe(303);
    const accepted = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(accepted.sections.map((s) => [s.title, s.chosen])).toEqual([
      ['Preparation', true],
      ['Oak engineered', false],
      ['Laminate', true],
    ]);
    expect(accepted).toMatchObject({ subtotal: 70000, total: 80483, deposit: { percent: 30000, amount: 24145 } });
    expect(accepted.sentChoices).toEqual({ lines: [], sections: [q.oak] });
    expect(accepted.acceptanceVersion).toBe(2);
    expect(accepted.acceptanceHash).toBe(acceptanceHash(accepted, 2));
    expect(acceptanceVerifies(accepted)).toBe(true);
    // The hash covers the choice: the same revision with the oak taken hashes otherwise.
    const asSent = {
      ...accepted,
      sections: accepted.sections.map((s) => ({ ...s, chosen: s.id !== q.laminate })),
    };
    expect(acceptanceHash(asSent, 2)).not.toBe(accepted.acceptanceHash);
    const page = (await app.inject({ method: 'GET', url: q.url })).body;
    expect(page).toContain('Accepted by <strong>Grace Hopper</strong>');
    expect(figures(page)).toMatchObject({ total: '$804.83', deposit: '$241.45' });
    expect(page).not.toContain('type="radio"');
    // The customer's copy lists what they took: the laminate's lines, never the oak's, and the totals that follow.
    const copy = await quoteEmailContent(
      world.ctx,
      { kind: 'quote', event: 'customer_copy', quoteId: q.quoteId },
      ws.seeded.workspaceId,
    );
    const mail = renderQuoteEmail(copy!);
    expect(mail.text).toContain('Laminate flooring, laid: 20 m² × $25.00 = $500.00');
    expect(mail.text).not.toContain('Oak engineered flooring');
    expect(mail.html).not.toContain('Oak engineered flooring');
    expect(mail.text).toContain('Total: $804.83');
    // The sender's notice says which alternative the customer took, of which.
    const notice = await quoteEmailContent(
      world.ctx,
      { kind: 'quote', event: 'accepted', quoteId: q.quoteId },
      ws.seeded.workspaceId,
    );
    const told = renderQuoteEmail(notice!);
    expect(told.text).toContain('The customer chose Laminate (of Oak engineered, Laminate).');
    expect(told.html).toContain('The customer chose Laminate (of Oak engineered, Laminate).');

    // The deposit invoice: 30 % of the laminate's net $700 = $210.00, GST $10.50, QST $20.9475 → $20.95: $241.45.
    const deposit = await createInvoiceFromQuote({
      ctx: inWorkspace(world.ctx, ws.seeded.workspaceId),
      input: { quoteId: q.quoteId, kind: 'deposit' },
    });
    expect(deposit.total).toBe(24145);
  });

  it('the PDF reads as the page: each section with its subtotal, the choice marked, the deposit', async () => {
    const q = await sentWithChoice(world, ws);
    await renderDueDocuments(world.ctx, { limit: 100 });
    const text = pdfText(
      (await quotePdf({ ctx: inWorkspace(world.ctx, ws.seeded.workspaceId), input: { quoteId: q.quoteId } })).pdf!,
    );
    for (const value of [
      'Preparation',
      'Subtotal · Preparation $200.00',
      'Oak engineered',
      'Chosen · Recommended · one of “Oak engineered · Laminate”',
      'Subtotal · Oak engineered $1,200.00',
      'Not chosen · one of “Oak engineered · Laminate”',
      'Subtotal · Laminate $500.00',
      'Total $1,609.65',
      'Deposit due on acceptance $482.90',
    ])
      expect(text, value).toContain(value);
  }, 120_000); // renders the PDF: the renderer's workers start on the first
});
