import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/domain/auth/sessions.js';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { addInvoiceLine } from '../../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../src/domain/invoices/create-blank-invoice.js';
import { createCreditNote } from '../../../src/domain/invoices/create-credit-note.js';
import { createInvoiceFromQuote } from '../../../src/domain/invoices/create-invoice-from-quote.js';
import { exportInvoices } from '../../../src/domain/invoices/export-invoices.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { updateInvoice } from '../../../src/domain/invoices/update-invoice.js';
import { voidInvoice } from '../../../src/domain/invoices/void-invoice.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { createAdminFixture, type AdminFixture } from '../../helpers/admin-security.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { runCli } from '../../helpers/cli.js';
import { libreOffice, readWithCalc, type CalcCell } from '../../helpers/libreoffice.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { acceptedQuote } from '../../domain/invoices/invoice-fixtures.js';
import { leadOf } from '../../domain/quotes/quote-fixtures.js';

/**
 * Export for the accountant (docs/invoices.md, "The books"): the worked example's deposit and rest, a credit note,
 * a void invoice and one issued after the range, exported for March 2026 as CSV (domain, page, CLI) and as .xlsx read
 * back by LibreOffice Calc: every figure as computed by hand, cells typed, the summary's sums equal to the rows'.
 */
const { soffice, skipReason } = libreOffice();
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MARCH = { from: '2026-03-01', to: '2026-03-31' };
const DAY = 24 * 60 * 60_000;

const HEADER = 'number,kind,date,customer,net,GST,QST,gross,paid,balance,status,quote';
/** By hand (docs/invoices.md, "The worked example"); the credit note takes back the disposal fee (75.00 + GST 3.75). */
const ROWS = [
  'INV-0001,deposit,2026-03-10,Ada Lovelace,458.79,22.94,43.52,525.25,525.25,0.00,paid,Q-0002',
  'INV-0002,final,2026-03-12,Ada Lovelace,1070.51,53.53,101.55,1225.59,600.00,546.84,partly_paid,Q-0002',
  'CN-0001,credit_note,2026-03-12,Ada Lovelace,-75.00,-3.75,0.00,-78.75,0.00,0.00,sent,Q-0002',
  // Void: in the books by its number, its figures 0; the customer's formula-like name kept as text.
  `INV-0003,invoice,2026-03-12,"'=HYPERLINK(""http://evil.test"")",0.00,0.00,0.00,0.00,0.00,0.00,void,`,
];
/** GST: 458.79 + 1,070.51 − 75.00 = 1,454.30 taxed 22.94 + 53.53 − 3.75; QST: 436.29 + 1,018.01 taxed 43.52 + 101.55. */
const SUMMARY = ['tax,rate,net,tax', 'GST,5,1454.30,72.72', 'QST,9.975,1454.30,145.07', 'total,,1454.30,217.79'];

/** Integers in hundredths from a decimal cell (exact: no float). */
const cents = (text: string) => {
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const n = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return text.startsWith('-') ? -n : n;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
/** A CSV the product wrote, as lines of plain cells (the quotes it puts around every cell taken off). */
const lines = (csv: string) =>
  (parse(csv.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][]).map((r) =>
    r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','),
  );

describeEachBackend('Export for the accountant (docs/invoices.md, "The books")', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let f: AdminFixture;
  let wctx: WorkspaceContext;
  let cookie: string;

  beforeAll(async () => {
    clock = new TestClock(Date.parse('2026-03-10T15:00:00.000Z'));
    world = await createWorld(backend, { clock });
    f = await createAdminFixture(world, { invoices: false });
    const workspaceId = f.home.workspaceId;
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId,
        currency: 'CAD',
        locale: 'en-CA',
        timeZone: 'America/Toronto',
        taxes: [
          { name: 'GST', rate: '5' },
          { name: 'QST', rate: '9.975' },
        ],
      },
    });
    wctx = inWorkspace(world.ctx, workspaceId);
    const by = { userId: f.owner.userId };
    const q = await acceptedQuote(world, { seeded: f.home, senderId: f.owner.userId }, { deposit: '30%' });
    const deposit = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'deposit' } });
    await sendInvoice({ ctx: wctx, input: { invoiceId: deposit.id, by } });
    const pay = (invoiceId: string, amount: string, date: string) =>
      recordPayment({ ctx: wctx, input: { invoiceId, payment: { amount, date, method: 'bank_transfer' } } });
    await pay(deposit.id, '525.25', '2026-03-10');
    clock.advance(2 * DAY);
    const final = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'final' } });
    await sendInvoice({ ctx: wctx, input: { invoiceId: final.id, by } });
    await pay(final.id, '600.00', '2026-03-12');
    const fee = final.lines.find((l) => l.description === 'Disposal fee')!;
    const note = await createCreditNote({
      ctx: wctx,
      input: { invoiceId: final.id, lineIds: [fee.id], reason: 'No disposal needed' },
    });
    await sendInvoice({ ctx: wctx, input: { invoiceId: note.id, by } });
    const leadId = await leadOf(world, f.home, 'Grace Hopper');
    const blank = async (customerName: string) => {
      const draft = await createBlankInvoice({ ctx: wctx, input: { leadId } });
      await updateInvoice({ ctx: wctx, input: { invoiceId: draft.id, details: { customerName } } });
      await addInvoiceLine({
        ctx: wctx,
        input: { invoiceId: draft.id, line: { description: 'Repair', quantity: '1', unit: 'fixed', price: '100.00' } },
      });
      return draft;
    };
    const wrong = await blank('=HYPERLINK("http://evil.test")');
    await sendInvoice({ ctx: wctx, input: { invoiceId: wrong.id, by } });
    await voidInvoice({ ctx: wctx, input: { invoiceId: wrong.id, reason: 'Sent to the wrong customer' } });
    await blank('Still a draft');
    clock.advance(21 * DAY);
    const april = await blank('Grace Hopper');
    await sendInvoice({ ctx: wctx, input: { invoiceId: april.id, by } });
    // The fixture's session was made three weeks ago on this clock: a fresh one for the pages.
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: f.owner.userId } });
    cookie = `leadscan_session=${sessionId}`;
  }, 180_000);
  afterAll(async () => {
    await world.close();
  });

  it('the rows and the tax summary as CSV: figures by hand, the sums equal the rows exactly', async () => {
    const rows = lines(await text(await exportInvoices({ ctx: wctx, input: { ...MARCH, format: 'csv' } })));
    expect(rows).toEqual([HEADER, ...ROWS]);
    const summary = lines(
      await text(await exportInvoices({ ctx: wctx, input: { ...MARCH, format: 'csv', summary: true } })),
    );
    expect(summary).toEqual(SUMMARY);

    // The sums, from the files alone: each tax column = its summary rows; the nets and all taxes = the total row.
    const cells = (parse(rows.join('\n'), {}) as string[][]).slice(1);
    const column = (i: number) => sum(cells.map((r) => cents(r[i]!)));
    const sumRows = (parse(summary.join('\n'), {}) as string[][]).slice(1);
    expect(column(5)).toBe(cents(sumRows[0]![3]!));
    expect(column(6)).toBe(cents(sumRows[1]![3]!));
    expect(column(4)).toBe(cents(sumRows[2]![2]!));
    expect(column(5) + column(6)).toBe(cents(sumRows[2]![3]!));
    expect(column(7)).toBe(column(4) + column(5) + column(6));

    // A range with nothing issued: the header, and a total of 0.
    const empty = { from: '2025-01-01', to: '2025-12-31', format: 'csv' as const };
    expect(lines(await text(await exportInvoices({ ctx: wctx, input: empty })))).toEqual([
      'number,kind,date,customer,net,gross,paid,balance,status,quote',
    ]);
    expect(lines(await text(await exportInvoices({ ctx: wctx, input: { ...empty, summary: true } })))).toEqual([
      'tax,rate,net,tax',
      'total,,0.00,0.00',
    ]);
  });

  it('the page: a range form with its downloads; a bad range is refused beside its field; audited', async () => {
    const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;
    const get = (url: string) => f.app.inject({ method: 'GET', url, headers: { cookie } });
    const page = await get(ws('/invoices/export'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<form method="get" action="${ws('/invoices/export.xlsx')}"`);
    expect(page.body).toContain('value="2025-01-01"');
    expect(page.body).toContain(`formaction="${ws('/invoices/export.csv')}" name="summary" value="1"`);

    const csv = await get(ws('/invoices/export.csv?from=2026-03-01&to=2026-03-31'));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="invoices-2026-03-01-to-2026-03-31.csv"');
    expect(csv.headers['cache-control']).toBe('no-store');
    expect(lines(csv.body)).toEqual([HEADER, ...ROWS]);
    const summary = await get(ws('/invoices/export.csv?from=2026-03-01&to=2026-03-31&summary=1'));
    expect(lines(summary.body)).toEqual(SUMMARY);

    const bad = await get(ws('/invoices/export.xlsx?from=2026-03-31&to=2026-03-01'));
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('<p class="field-error" id="f-to-error">A day on or after the first day</p>');
    const missing = await get(ws('/invoices/export.csv?from=&to=2026-03-01'));
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('id="f-from-error"');

    const audited = await world.store.db
      .selectFrom('audit_log')
      .select(['details'])
      .where('action', '=', 'invoice.exported')
      .where('workspace_id', '=', f.home.workspaceId)
      .execute();
    expect(audited.map((a) => JSON.parse(a.details) as unknown)).toEqual(
      expect.arrayContaining([{}, { summary: true }]),
    );
  });

  it('leadscan invoices export: CSV to stdout, --summary, --format xlsx --out FILE; a bad format or range refused', async () => {
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const base = ['invoices', 'export', '--workspace', f.home.workspaceId, '--from', MARCH.from, '--to', MARCH.to];
    const out = await runCli(base, env);
    expect(out.code, out.stderr).toBe(0);
    expect(lines(out.stdout)).toEqual([HEADER, ...ROWS]);
    const summary = await runCli([...base, '--summary'], env);
    expect(lines(summary.stdout)).toEqual(SUMMARY);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-books-'));
    try {
      const file = path.join(dir, 'books.xlsx');
      const xlsx = await runCli([...base, '--format', 'xlsx', '--out', file], env);
      expect(xlsx.code, xlsx.stderr).toBe(0);
      expect(xlsx.stdout).toBe('');
      expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ods = await runCli([...base, '--format', 'ods'], env);
    expect(ods.code).not.toBe(0);
    expect(ods.stderr).toContain('--format is csv or xlsx');
    const backwards = await runCli(
      ['invoices', 'export', '--workspace', f.home.workspaceId, '--from', '2026-03-31', '--to', '2026-03-01'],
      env,
    );
    expect(backwards.code).not.toBe(0);
    expect(backwards.stderr).toContain('The range ends before it starts');
  }, 120_000);

  describe.skipIf(!soffice)(`read by LibreOffice Calc${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
    it('the .xlsx: sheets Invoices and Tax summary, every cell typed, the sums exact', async () => {
      const res = await f.app.inject({
        method: 'GET',
        url: `/w/${f.home.workspaceId}/invoices/export.xlsx?from=2026-03-01&to=2026-03-31`,
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX);
      const invoices = await readWithCalc(soffice!, res.rawPayload, 1);
      const taxes = await readWithCalc(soffice!, res.rawPayload, 2);
      const shown = (sheet: CalcCell[][]) => sheet.map((r) => r.map((c) => c.shown));
      expect(invoices[0]!.every((c) => c.text)).toBe(true);
      expect(shown(invoices)).toEqual([
        HEADER.split(','),
        ...(parse(ROWS.join('\n'), {}) as string[][]).map((r) =>
          r.map((c, i) => (i === 3 ? c.replace(/^'/, '') : c === '' ? '' : c)),
        ),
      ]);
      // Numbers and dates are numbers and dates; number, kind, customer, status and quote are text.
      for (const row of invoices.slice(1)) {
        expect(row.map((c) => c.text)).toEqual([
          true,
          true,
          false,
          true,
          false,
          false,
          false,
          false,
          false,
          false,
          true,
          row[11]!.shown === '' ? false : true,
        ]);
      }
      expect(shown(taxes)).toEqual(
        (parse(SUMMARY.join('\n'), {}) as string[][]).map((r) => r.map((c) => (c === '' ? '' : c))),
      );
      expect(taxes.slice(1).map((r) => r.slice(1).map((c) => c.text))).toEqual([
        [false, false, false],
        [false, false, false],
        [false, false, false],
      ]);
      const col = (i: number) => sum(invoices.slice(1).map((r) => cents(r[i]!.shown)));
      expect(col(5) + col(6)).toBe(cents(taxes[3]![3]!.shown));
      expect(col(4)).toBe(cents(taxes[3]![2]!.shown));
    }, 180_000);
  });
});
