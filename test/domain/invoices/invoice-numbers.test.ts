import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inWorkspace, type DomainContext, type WorkspaceContext } from '../../../src/domain/context.js';
import { AppError } from '../../../src/domain/errors.js';
import { addInvoiceLine } from '../../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../src/domain/invoices/create-blank-invoice.js';
import { createCreditNote } from '../../../src/domain/invoices/create-credit-note.js';
import { createInvoiceFromQuote } from '../../../src/domain/invoices/create-invoice-from-quote.js';
import { getInvoice } from '../../../src/domain/invoices/get-invoice.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { voidInvoice } from '../../../src/domain/invoices/void-invoice.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { createDomainContext } from '../../../src/runtime.js';
import { openDatabase, type Database } from '../../../src/storage/database.js';
import { describeEachBackend, postgresAdminUrl } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { leadOf } from '../quotes/quote-fixtures.js';
import { quotingWorkspace } from '../../web/quote-fixtures.js';
import { acceptedQuote } from './invoice-fixtures.js';

const SENDS = 20;
const BY = { userId: null };
const numbers = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(from + i).padStart(4, '0')}`);

/** `count` drafts of one line each (10.00 + taxes) for a lead. */
async function drafts(ctx: WorkspaceContext, leadId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const draft = await createBlankInvoice({ ctx, input: { leadId } });
    await addInvoiceLine({
      ctx,
      input: { invoiceId: draft.id, line: { description: `Job ${i}`, quantity: '1', unit: 'fixed', price: '10' } },
    });
    ids.push(draft.id);
  }
  return ids;
}

async function settled<T>(promise: Promise<T>): Promise<T | string> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describeEachBackend('invoice numbers under concurrent sends (docs/invoices.md, "Numbers")', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  it(`${SENDS} parallel sends get ${SENDS} consecutive numbers; a void keeps its number; credit notes count apart`, async () => {
    const ws = await quotingWorkspace(world, 'Parallel');
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, invoicePrefix: 'F-' },
    });
    const ctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
    const ids = await drafts(ctx, await leadOf(world, ws.seeded), SENDS);
    const sent = await Promise.all(ids.map((invoiceId) => sendInvoice({ ctx, input: { invoiceId, by: BY } })));
    expect(sent.map((s) => s.invoice.number).sort()).toEqual(numbers('F-', 1, SENDS));
    // The same draft sent twice at once: one number.
    const [again] = await drafts(ctx, sent[0]!.invoice.leadId!, 1);
    const twice = await Promise.all(
      [0, 1].map(() => settled(sendInvoice({ ctx, input: { invoiceId: again!, by: BY } }))),
    );
    expect(twice.filter((t) => typeof t === 'string')).toEqual(['invoice_not_editable']);
    expect((await getInvoice({ ctx, input: { ref: again! } })).number).toBe('F-0021');

    // A void invoice keeps its number; the next one follows it.
    const voided = await voidInvoice({ ctx, input: { invoiceId: sent[3]!.invoice.id, reason: 'Wrong job' } });
    expect(voided.number).toBe(sent[3]!.invoice.number);
    const [next] = await drafts(ctx, sent[0]!.invoice.leadId!, 1);
    expect((await sendInvoice({ ctx, input: { invoiceId: next!, by: BY } })).invoice.number).toBe('F-0022');

    // Credit notes: their own series, CN-0001 on.
    const paid = sent.filter((_, i) => i !== 3).slice(0, 3);
    const notes: string[] = [];
    for (const s of paid) {
      await recordPayment({
        ctx,
        input: {
          invoiceId: s.invoice.id,
          payment: { amount: '5.00', date: '2024-01-02', method: 'cash' },
          receipt: false,
        },
      });
      notes.push((await createCreditNote({ ctx, input: { invoiceId: s.invoice.id, reason: 'Goodwill' } })).id);
    }
    const credited = await Promise.all(notes.map((invoiceId) => sendInvoice({ ctx, input: { invoiceId, by: BY } })));
    expect(credited.map((c) => c.invoice.number).sort()).toEqual(numbers('CN-', 1, 3));
    const [last] = await drafts(ctx, sent[0]!.invoice.leadId!, 1);
    expect((await sendInvoice({ ctx, input: { invoiceId: last!, by: BY } })).invoice.number).toBe('F-0023');
  });
});

/** Two app instances (each its own pool and commit batcher) on one PostgreSQL database, as with `serve --workers`. */
describe.skipIf(!postgresAdminUrl)('invoices with two app instances on one PostgreSQL: numbers and races', () => {
  let world: TestWorld;
  let second: Database;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;
  let one: WorkspaceContext;
  let two: WorkspaceContext;
  const either = (i: number) => (i % 2 === 0 ? one : two);
  beforeAll(async () => {
    world = await createWorld('postgres');
    second = openDatabase(world.config.database);
    ws = await quotingWorkspace(world, 'Two instances');
    one = inWorkspace(world.ctx, ws.seeded.workspaceId);
    const other: DomainContext = createDomainContext({
      config: world.config,
      store: second,
      appSecret: world.appSecret,
    });
    two = inWorkspace(other, ws.seeded.workspaceId);
  });
  afterAll(async () => {
    await second.close();
    await world.close();
  });

  it(`${SENDS} parallel sends through both instances: consecutive numbers, none twice`, async () => {
    const ids = await drafts(one, await leadOf(world, ws.seeded), SENDS);
    const sent = await Promise.all(
      ids.map((invoiceId, i) => sendInvoice({ ctx: either(i), input: { invoiceId, by: BY } })),
    );
    expect(sent.map((s) => s.invoice.number).sort()).toEqual(numbers('INV-', 1, SENDS));
  });

  it('payments raced through both instances never pass the balance; a void and a payment: one wins', async () => {
    const [invoiceId] = await drafts(one, await leadOf(world, ws.seeded), 1);
    const sent = await sendInvoice({ ctx: one, input: { invoiceId: invoiceId!, by: BY } });
    // 10.00 + GST 0.50 + QST 1.00 = 11.50: eight payments of 2.00 at once, five fit.
    expect(sent.invoice.total).toBe(1150);
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        settled(
          recordPayment({
            ctx: either(i),
            input: {
              invoiceId: invoiceId!,
              payment: { amount: '2.00', date: '2024-01-02', method: 'cash' },
              receipt: false,
            },
          }),
        ),
      ),
    );
    expect(tries.filter((t) => typeof t !== 'string')).toHaveLength(5);
    expect(tries.filter((t) => t === 'payment_over_balance')).toHaveLength(3);
    expect(await getInvoice({ ctx: one, input: { ref: invoiceId! } })).toMatchObject({ paid: 1000, balance: 150 });

    const [other] = await drafts(one, sent.invoice.leadId!, 1);
    await sendInvoice({ ctx: two, input: { invoiceId: other!, by: BY } });
    const race = await Promise.all([
      settled(voidInvoice({ ctx: one, input: { invoiceId: other!, reason: 'Duplicate' } })),
      settled(
        recordPayment({
          ctx: two,
          input: { invoiceId: other!, payment: { amount: '1.00', date: '2024-01-02', method: 'cash' }, receipt: false },
        }),
      ),
    ]);
    const after = await getInvoice({ ctx: one, input: { ref: other! } });
    if (typeof race[0] === 'string') {
      expect(race[0]).toBe('invoice_has_payments');
      expect(after).toMatchObject({ status: 'partly_paid', paid: 100 });
    } else {
      expect(race[1]).toBe('invoice_not_payable');
      expect(after).toMatchObject({ status: 'void', paid: 0 });
    }
  });

  it('two "rest" invoices of one quote made at once through both instances: one is made', async () => {
    const q = await acceptedQuote(world, ws, { deposit: '30%' });
    const made = await Promise.all(
      [one, two].map((ctx) => settled(createInvoiceFromQuote({ ctx, input: { quoteId: q.quoteId, kind: 'final' } }))),
    );
    expect(made.filter((m) => typeof m === 'string')).toEqual(['already_invoiced']);
  });
});
