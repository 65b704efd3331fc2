import { afterAll, beforeAll, expect, it } from 'vitest';
import { listAudit } from '../../../src/domain/audit/list-audit.js';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { AppError } from '../../../src/domain/errors.js';
import { addInvoiceLine } from '../../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../src/domain/invoices/create-blank-invoice.js';
import { createInvoiceFromQuote } from '../../../src/domain/invoices/create-invoice-from-quote.js';
import { openInvoiceByToken } from '../../../src/domain/invoices/customer-invoice.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { updateInvoice } from '../../../src/domain/invoices/update-invoice.js';
import { BOOKS_KEEP_IT, erasePerson } from '../../../src/domain/persons/erase-person.js';
import { exportPerson } from '../../../src/domain/persons/export-person.js';
import { runRetention } from '../../../src/domain/retention/run-retention.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { runCli } from '../../helpers/cli.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { quotingWorkspace } from '../../web/quote-fixtures.js';
import { leadOf } from '../quotes/quote-fixtures.js';
import { acceptedQuote } from './invoice-fixtures.js';

const NOW = Date.parse('2026-03-10T15:00:00.000Z');
const DAY = 24 * 60 * 60_000;

/**
 * Invoices and personal data (docs/personal-data.md, "Erasing"; docs/invoices.md, "Personal data"): erasure keeps
 * issued invoices and credit notes (the books), says so with the reason and ends their links, deletes drafts;
 * retention deletes issued invoices only once past the books' keeping period.
 */
describeEachBackend('invoices and personal data', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;
  let wctx: WorkspaceContext;

  beforeAll(async () => {
    clock = new TestClock(NOW);
    world = await createWorld(backend, { clock });
    ws = await quotingWorkspace(world, 'Books');
    wctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
  }, 120_000);
  afterAll(async () => {
    await world.close();
  });

  const by = () => ({ userId: ws.senderId });
  async function blankFor(leadId: string, email?: string) {
    const draft = await createBlankInvoice({ ctx: wctx, input: { leadId } });
    if (email) await updateInvoice({ ctx: wctx, input: { invoiceId: draft.id, details: { customerEmail: email } } });
    await addInvoiceLine({
      ctx: wctx,
      input: { invoiceId: draft.id, line: { description: 'Repair', quantity: '1', unit: 'fixed', price: '100.00' } },
    });
    return draft;
  }
  const notFound = async (token: string) => {
    try {
      await openInvoiceByToken({ ctx: world.ctx, input: { token } });
    } catch (error) {
      return error instanceof AppError ? error.code : 'other';
    }
    return 'found';
  };

  it('erasure keeps issued invoices and credit notes with the reason, ends their links, deletes drafts', async () => {
    // Ada's accepted quote (her lead's email is ada@example.com): a deposit sent and paid, the rest still a draft.
    const q = await acceptedQuote(world, ws, { deposit: '30%', email: 'ada@example.com' });
    const deposit = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'deposit' } });
    const sent = await sendInvoice({ ctx: wctx, input: { invoiceId: deposit.id, by: by() } });
    await recordPayment({
      ctx: wctx,
      input: { invoiceId: deposit.id, payment: { amount: '525.25', date: '2026-03-10', method: 'cash' } },
    });
    const rest = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'final' } });
    // An invoice of another lead addressed to Ada (found by her email), sent; and Carol's, which stays as it is.
    const other = await blankFor(await leadOf(world, ws.seeded, 'Bob Builder'), 'ADA@example.com');
    const otherSent = await sendInvoice({ ctx: wctx, input: { invoiceId: other.id, by: by() } });
    const carol = await blankFor(await leadOf(world, ws.seeded, 'Carol Jones'));
    const carolSent = await sendInvoice({ ctx: wctx, input: { invoiceId: carol.id, by: by() } });

    // Her export lists the same invoices (of her lead, and addressed to her), payments in, links out.
    const exported = await exportPerson({ ctx: wctx, input: { email: 'Ada@Example.com' } });
    expect(exported.invoices.map((i) => [i.id, i.number, i.kind, i.payments.map((p) => p.amount)])).toEqual([
      [deposit.id, 'INV-0001', 'deposit', [52525]],
      [rest.id, null, 'final', []],
      [other.id, 'INV-0002', 'invoice', []],
    ]);
    expect(JSON.stringify(exported)).not.toContain(sent.token);
    expect(JSON.stringify(exported)).not.toContain('customerUrl');
    const erased = await erasePerson({ ctx: wctx, input: { email: 'ada@example.com' } });
    expect(erased.deleted.invoices).toEqual([rest.id]);
    expect(erased.kept).toEqual([
      { kind: 'deposit', id: deposit.id, number: 'INV-0001', reason: BOOKS_KEEP_IT },
      { kind: 'invoice', id: other.id, number: 'INV-0002', reason: BOOKS_KEEP_IT },
    ]);
    expect(BOOKS_KEEP_IT).toContain('GDPR Art. 17(3)(b)');
    const rows = await world.store.db
      .selectFrom('invoices')
      .select(['id', 'number', 'customer_name', 'token_hash', 'token_enc', 'lead_id', 'total', 'paid'])
      .where('workspace_id', '=', ws.seeded.workspaceId)
      .orderBy('number')
      .execute();
    // The books as they were invoiced: the customer's name, the figures; no lead, no link.
    expect(rows.map((r) => [r.number, r.customer_name, r.token_hash, r.token_enc, r.lead_id === null])).toEqual([
      ['INV-0001', 'Ada Lovelace', null, null, true],
      ['INV-0002', 'Bob Builder', null, null, false],
      ['INV-0003', 'Carol Jones', expect.any(String), expect.any(String), false],
    ]);
    expect(Number(rows[0]!.paid)).toBe(52525);
    expect(
      await world.store.db.selectFrom('invoice_lines').select('id').where('invoice_id', '=', rest.id).execute(),
    ).toEqual([]);
    expect(await notFound(sent.token)).toBe('invoice_not_found');
    expect(await notFound(otherSent.token)).toBe('invoice_not_found');
    expect(await notFound(carolSent.token)).toBe('found');

    const audit = await listAudit({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, action: 'person.erased' },
    });
    expect(audit.records[0]!.details).toMatchObject({ invoicesDeleted: 1, invoicesKept: 2 });

    // The CLI's answer says what was kept and why (an erasure of Carol, with --json).
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const cli = await runCli(
      ['person', 'erase', '--workspace', ws.seeded.workspaceId, '--email', 'carol@example.com', '--yes', '--json'],
      env,
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { kept: unknown }).kept).toEqual([
      { kind: 'invoice', id: carol.id, number: 'INV-0003', reason: BOOKS_KEEP_IT },
    ]);
    const text = await runCli(
      ['person', 'erase', '--workspace', ws.seeded.workspaceId, '--email', 'bob@example.com', '--yes'],
      env,
    );
    expect(text.stdout).toContain(`Kept INV-0002 (invoice): ${BOOKS_KEEP_IT}`);
  }, 120_000);

  it('retention keeps issued invoices for the books’ keeping period (a setting), drafts and all, then deletes them', async () => {
    const leadId = await leadOf(world, ws.seeded, 'Dora Keeping');
    const issued = await blankFor(leadId);
    await sendInvoice({ ctx: wctx, input: { invoiceId: issued.id, by: by() } });
    const draft = await blankFor(leadId);
    // Leads kept 3 months: the lead goes, its invoices stay.
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, leadRetention: '3', booksYears: 2 },
    });
    const left = async () =>
      (
        await world.store.db
          .selectFrom('invoices')
          .select('id')
          .where('id', 'in', [issued.id, draft.id])
          .orderBy('id')
          .execute()
      ).map((r) => r.id);
    await world.store.db.updateTable('leads').set({ received_at: '2025-01-01T00:00:00.000Z' }).execute();
    clock.advance(DAY);
    expect(
      (await runRetention(world.ctx)).workspaces.find((w) => w.workspaceId === ws.seeded.workspaceId),
    ).toMatchObject({
      invoices: 0,
    });
    expect(await left()).toEqual([issued.id, draft.id].sort());

    // Two years less a day after its issue (2026-03-10): kept. Two years and a day: deleted, its lines with it.
    clock.advance(2 * 365 * DAY - 2 * DAY);
    await runRetention(world.ctx);
    expect(await left()).toEqual([issued.id, draft.id].sort());
    clock.advance(3 * DAY);
    const run = await runRetention(world.ctx);
    expect(run.workspaces.find((w) => w.workspaceId === ws.seeded.workspaceId)).toMatchObject({ invoices: 4 });
    expect(await left()).toEqual([draft.id]);
    expect(
      await world.store.db.selectFrom('invoice_lines').select('id').where('invoice_id', '=', issued.id).execute(),
    ).toEqual([]);
    const audit = await listAudit({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, action: 'retention.ran' },
    });
    expect(audit.records[0]!.details).toMatchObject({ invoices: 4, booksYears: 2 });
  }, 120_000);
});
