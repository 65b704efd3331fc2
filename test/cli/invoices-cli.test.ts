import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inWorkspace } from '../../src/domain/context.js';
import { sendInvoice } from '../../src/domain/invoices/send-invoice.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf-text.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { acceptedQuote } from '../domain/invoices/invoice-fixtures.js';
import { quotingWorkspace } from '../web/quote-fixtures.js';

/** The keys of `invoices show --json` (docs/invoices.md, "The CLI"); `overdue` only when it is. */
const INVOICE_KEYS = [
  'balance',
  'credits',
  'currency',
  'customer',
  'customerUrl',
  'dueDate',
  'id',
  'issueDate',
  'kind',
  'leadId',
  'lines',
  'number',
  'paid',
  'payments',
  'quoteId',
  'sentAt',
  'status',
  'subtotal',
  'taxes',
  'total',
  'voidReason',
];

interface InvoiceJson {
  id: string;
  number: string | null;
  kind: string;
  status: string;
  lines: Array<{
    id: string;
    description: string;
    quantity: number;
    unitPrice: number;
    amount: number;
    taxes: string[];
  }>;
  taxes: Array<{ name: string; rate: number; amount: number }>;
  subtotal: number;
  total: number;
  paid: number;
  balance: number;
  dueDate: string | null;
  payments: Array<{ id: string; date: string; amount: number; method: string; reference: string | null }>;
  credits: string[];
  voidReason: string | null;
}

describeEachBackend('leadscan invoices (spawned CLI, --json money as integers)', (backend) => {
  let world: TestWorld;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'https://leads.example.com' };
  });
  afterAll(async () => {
    await world.close();
  }, 120_000);

  it('settings, drafts from a quote and a lead, payments, void, credit notes, the list and the PDF', async () => {
    const ws = await quotingWorkspace(world, 'Painters');
    const settings = await cliJson<Record<string, unknown>>(
      [
        'workspace',
        'settings',
        'Painters',
        '--invoice-prefix',
        'F-',
        '--payment-terms',
        '30',
        '--payment-instructions',
        'Pay by transfer',
        '--books-years',
        '7',
      ],
      env,
    );
    expect(settings).toMatchObject({
      invoicePrefix: 'F-',
      paymentTermsDays: 30,
      paymentInstructions: 'Pay by transfer',
      booksYears: 7,
    });
    const bad = await runCli(
      ['workspace', 'settings', 'Painters', '--payment-terms', '400', '--invoice-prefix', 'CN-', '--json'],
      env,
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });

    const q = await acceptedQuote(world, ws, { deposit: '30%' });
    const deposit = await cliJson<InvoiceJson>(['invoices', 'create', '--quote', 'Q-0001', '--deposit'], env);
    expect(Object.keys(deposit).sort()).toEqual(INVOICE_KEYS);
    expect(deposit).toMatchObject({ kind: 'deposit', status: 'draft', number: null, subtotal: 45879, total: 52525 });
    expect(deposit.lines.map((l) => [l.quantity, l.unitPrice, l.amount, l.taxes])).toEqual([
      [1, 43629, 43629, ['GST', 'QST']],
      [1, 2250, 2250, ['GST']],
    ]);
    expect(deposit.taxes).toEqual([
      { name: 'GST', rate: 5, amount: 2294 },
      { name: 'QST', rate: 9.975, amount: 4352 },
    ]);
    // No `invoices send`: a person sends it from its page.
    expect((await runCli(['invoices', 'send', deposit.id], env)).code).not.toBe(0);
    const ctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
    await sendInvoice({ ctx, input: { invoiceId: deposit.id, by: { userId: ws.senderId } } });

    const shown = await cliJson<InvoiceJson>(['invoices', 'show', 'f-0001'], env);
    expect(shown).toMatchObject({ id: deposit.id, number: 'F-0001', status: 'sent', balance: 52525 });
    expect(shown.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const over = await runCli(
      [
        'invoices',
        'record-payment',
        'F-0001',
        '--amount',
        '525.26',
        '--date',
        '2026-11-20',
        '--method',
        'cash',
        '--json',
      ],
      env,
    );
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stdout)).toMatchObject({ ok: false, code: 'payment_over_balance' });
    const paid = await cliJson<InvoiceJson>(
      [
        'invoices',
        'record-payment',
        'F-0001',
        '--amount',
        '100.00',
        '--date',
        '2026-11-20',
        '--method',
        'bank_transfer',
        '--reference',
        'R-1',
        '--no-receipt',
      ],
      env,
    );
    expect(paid).toMatchObject({ status: 'partly_paid', paid: 10000, balance: 42525 });
    expect(paid.payments).toEqual([
      {
        id: expect.stringMatching(/^pay_/),
        date: '2026-11-20',
        amount: 10000,
        method: 'bank_transfer',
        reference: 'R-1',
      },
    ]);
    const refused = await runCli(['invoices', 'void', 'F-0001', '--reason', 'Wrong'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('F-0001 has payments');
    const unpaid = await cliJson<InvoiceJson>(['invoices', 'delete-payment', 'F-0001', paid.payments[0]!.id], env);
    expect(unpaid).toMatchObject({ status: 'sent', paid: 0, payments: [] });
    const voided = await cliJson<InvoiceJson>(['invoices', 'void', 'F-0001', '--reason', 'Wrong amount'], env);
    expect(voided).toMatchObject({ number: 'F-0001', status: 'void', voidReason: 'Wrong amount' });

    const rest = await cliJson<InvoiceJson>(['invoices', 'create', '--quote', q.quoteId, '--rest'], env);
    expect(rest).toMatchObject({ kind: 'final', total: 175084 });
    await sendInvoice({ ctx, input: { invoiceId: rest.id, by: { userId: null } } });
    await cliJson(
      ['invoices', 'record-payment', 'F-0002', '--amount', '1000', '--date', '2026-11-21', '--method', 'cheque'],
      env,
    );
    const labour = rest.lines.find((l) => l.description === 'Labour')!;
    const credit = await cliJson<InvoiceJson>(
      ['invoices', 'credit', 'F-0002', '--line', labour.id, '--reason', 'Labour overcharged'],
      env,
    );
    expect(credit).toMatchObject({ kind: 'credit_note', status: 'draft', subtotal: 52000 });

    const blank = await cliJson<InvoiceJson>(['invoices', 'create', '--lead', q.leadId], env);
    const lined = await cliJson<InvoiceJson>(
      [
        'invoices',
        'add-line',
        blank.id,
        '--description',
        'Call-out',
        '--quantity',
        '1.5',
        '--unit',
        'hour',
        '--price',
        '80',
        '--taxes',
        'GST',
      ],
      env,
    );
    expect(lined.lines).toEqual([
      {
        id: expect.any(String),
        description: 'Call-out',
        quantity: 1.5,
        unit: 'hour',
        unitPrice: 8000,
        amount: 12000,
        taxes: ['GST'],
      },
    ]);
    expect(lined).toMatchObject({ subtotal: 12000, total: 12600 });

    const listed = await cliJson<Array<{ number: string | null; kind: string; status: string }>>(
      ['invoices', 'list', '--workspace', 'Painters', '--status', 'draft'],
      env,
    );
    expect(listed.map((r) => [r.number, r.kind, r.status])).toEqual([
      [null, 'invoice', 'draft'],
      [null, 'credit_note', 'draft'],
    ]);

    // No server has rendered it: the command renders it from the frozen model.
    const file = path.join(world.testDb.dir, 'F-0002.pdf');
    const written = await cliJson<{ file: string; fileName: string; size: number; sha256: string }>(
      ['invoices', 'pdf', 'F-0002', '--out', file],
      env,
    );
    expect(written).toMatchObject({ file, fileName: 'F-0002.pdf' });
    const pdf = fs.readFileSync(file);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(written.size).toBe(pdf.byteLength);
    expect(pdfText(pdf)).toContain('Payment instructions Pay by transfer');
    const draft = await runCli(['invoices', 'pdf', blank.id, '--out', file, '--json'], env);
    expect(JSON.parse(draft.stdout)).toMatchObject({ ok: false, code: 'not_sent' });
  }, 240_000);
});
