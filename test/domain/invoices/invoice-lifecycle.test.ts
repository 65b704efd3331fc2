import { quoteCtx } from '../../helpers/contexts.js';
import crypto from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { invoiceJson } from '../../../src/cli/invoices-commands.js';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { renderDueDocuments } from '../../../src/domain/documents/document-jobs.js';
import { AppError } from '../../../src/domain/errors.js';
import { addInvoiceLine } from '../../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../src/domain/invoices/create-blank-invoice.js';
import { createCreditNote } from '../../../src/domain/invoices/create-credit-note.js';
import { createInvoiceFromQuote } from '../../../src/domain/invoices/create-invoice-from-quote.js';
import { openInvoiceByToken } from '../../../src/domain/invoices/customer-invoice.js';
import { deletePayment } from '../../../src/domain/invoices/delete-payment.js';
import { getInvoice } from '../../../src/domain/invoices/get-invoice.js';
import { invoiceChain } from '../../../src/domain/invoices/invoice-chain.js';
import { customerInvoicePdf, invoicePdf } from '../../../src/domain/invoices/invoice-pdf.js';
import { listInvoices, outstandingTotals } from '../../../src/domain/invoices/list-invoices.js';
import { recordInvoiceView } from '../../../src/domain/invoices/record-invoice-view.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { removeInvoiceLine } from '../../../src/domain/invoices/remove-invoice-line.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { updateInvoice } from '../../../src/domain/invoices/update-invoice.js';
import { updateInvoiceLine } from '../../../src/domain/invoices/update-invoice-line.js';
import { voidInvoice } from '../../../src/domain/invoices/void-invoice.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { pdfText } from '../../helpers/pdf-text.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { quotingWorkspace } from '../../web/quote-fixtures.js';
import { acceptedQuote } from './invoice-fixtures.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const DAY = 24 * 60 * 60_000;
const sha = (bytes: Uint8Array | Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The refusal a call ends in: its code, and the field and message a page shows beside that field. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; field?: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const [first] = error.fieldErrors ?? [];
    return { code: error.code, ...(first ? { field: first.field, message: first.message } : {}) };
  }
  throw new Error('expected a refusal');
}

const money = { GST: 'GST', QST: 'QST' };

describeEachBackend('invoices: deposit, the rest, payments, void and credit notes (docs/invoices.md)', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;
  let wctx: WorkspaceContext;
  const sender = { replyTo: 'sender@brightfloors.test', senderName: 'Sam Sender' };

  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(NOW);
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <invoices@leadscan.test>' },
    });
    ws = await quotingWorkspace(world, 'Bright Floors');
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId: ws.seeded.workspaceId,
        paymentInstructions: 'Bank transfer to Bright Floors\nIBAN CA00 1234 <b>5678</b>',
      },
    });
    wctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
  }, 120_000);
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });
  beforeEach(async () => {
    await flush();
  });

  /** Every outbox row sent is one message in the sink: `seen` of them were looked at already. */
  let seen = 0;
  async function deliver(): Promise<number> {
    await renderDueDocuments(world.ctx, { limit: 50 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    const sent = await world.store.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'sent')
      .executeTakeFirstOrThrow();
    return Number(sent.n);
  }
  /** The next `count` emails sent. */
  async function mails(count: number): Promise<ParsedMail[]> {
    await deliver();
    const all = await sink.waitFor(seen + count);
    const next = all.slice(seen, seen + count);
    seen += count;
    return next;
  }
  /** Everything queued so far sent and passed over (the quote's acceptance emails, before an invoice's). */
  async function flush(): Promise<void> {
    const sent = await deliver();
    await sink.waitFor(sent);
    seen = sent;
  }

  let depositId = '';
  let quoteId = '';

  it('a deposit invoice has one line per set of taxes, p × their net sum; its total is the deposit shown; sent with number, due date, PDF and email', async () => {
    const q = await acceptedQuote(world, ws, { deposit: '30%' });
    quoteId = q.quoteId;
    await flush();
    const quote = await getQuote({ ctx: await quoteCtx(world.ctx, q.quoteId), input: { ref: q.quoteId } });
    expect(quote.total).toBe(175084);
    expect(quote.deposit?.amount).toBe(52525);

    const draft = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'deposit' } });
    depositId = draft.id;
    expect(draft).toMatchObject({ kind: 'deposit', status: 'draft', number: null, leadId: q.leadId, currency: 'CAD' });
    // 30 % of 1,454.30 (GST + QST) = 436.29; of 75.00 (GST only) = 22.50.
    expect(draft.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount, l.taxes])).toEqual([
      ['Deposit (30 %) on quote Q-0001: work taxed GST + QST', 100, 43629, 43629, [money.GST, money.QST]],
      ['Deposit (30 %) on quote Q-0001: work taxed GST', 100, 2250, 2250, [money.GST]],
    ]);
    expect(draft.subtotal).toBe(45879);
    // GST 5 % of 458.79 = 22.9395 → 22.94; QST 9.975 % of 436.29 = 43.5199… → 43.52.
    expect(draft.taxes).toEqual([
      { name: 'GST', rate: 5000, amount: 2294 },
      { name: 'QST', rate: 9975, amount: 4352 },
    ]);
    expect(draft.total).toBe(52525);

    const sent = await sendInvoice({
      ctx: wctx,
      input: { invoiceId: draft.id, by: { userId: ws.senderId }, email: sender },
    });
    expect(sent.invoice).toMatchObject({
      number: 'INV-0001',
      status: 'sent',
      issueDate: '2026-11-26',
      dueDate: '2026-12-10',
      balance: 52525,
      paid: 0,
      paymentInstructions: 'Bank transfer to Bright Floors\nIBAN CA00 1234 <b>5678</b>',
    });
    expect(sent.customerUrl).toBe(`http://leadscan.test/i/${sent.token}`);
    expect(sent.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const stored = await world.store.db
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha(Buffer.from(sent.token)));
    expect(JSON.stringify(stored)).not.toContain(sent.token);

    const [mail] = await mails(1);
    expect(mail!.subject).toBe('Deposit invoice INV-0001 from Bright Floors');
    expect(mail!.to).toMatchObject({ text: 'ada@customer.test' });
    expect(mail!.replyTo?.text).toBe(sender.replyTo);
    expect(mail!.text).toContain(sent.customerUrl);
    expect(mail!.text).toContain('Total: $525.25. Due date: December 10, 2026.');
    expect(mail!.text).toContain('IBAN CA00 1234 <b>5678</b>');
    expect(mail!.html).toContain('IBAN CA00 1234 &lt;b&gt;5678&lt;/b&gt;');
    expect(mail!.html).not.toContain('<b>5678');
    expect(mail!.attachments).toHaveLength(1);
    const attachment = mail!.attachments[0]!;
    expect(attachment.filename).toBe('INV-0001.pdf');
    expect(attachment.contentType).toBe('application/pdf');
    const stored2 = await invoicePdf({ ctx: wctx, input: { invoiceId: draft.id } });
    expect(sha(attachment.content)).toBe(stored2.sha256);
    expect(sha((await customerInvoicePdf({ ctx: world.ctx, input: { token: sent.token } })).pdf!)).toBe(stored2.sha256);
    const text = pdfText(attachment.content);
    for (const value of [
      'DEPOSIT INVOICE',
      'INV-0001',
      'Date November 26, 2026',
      'Due date December 10, 2026',
      'Quote Q-0001',
      'Bill to',
      'Ada Lovelace',
      'Deposit (30 %) on quote Q-0001: work taxed GST + QST',
      '$436.29',
      '$22.50',
      'Subtotal $458.79',
      'GST 5 % $22.94',
      'QST 9.975 % $43.52',
      'Total $525.25',
      'Paid $0.00',
      'Balance due $525.25',
      'Payment instructions',
      'IBAN CA00 1234 <b>5678</b>',
      'INV-0001 · page 1 of 1',
    ])
      expect(text, value).toContain(value);
  }, 120_000); // the first send starts the PDF renderer's workers and loads its fonts: slow on a loaded machine

  it('payments: at most the balance, each refusal with its field message; a receipt each; paid in full tells the sender', async () => {
    const blank = await createBlankInvoice({
      ctx: wctx,
      input: { leadId: (await getInvoice({ ctx: wctx, input: { ref: depositId } })).leadId! },
    });
    expect(
      await refusal(
        recordPayment({
          ctx: wctx,
          input: { invoiceId: blank.id, payment: { amount: '10.00', date: '2026-11-26', method: 'cash' } },
        }),
      ),
    ).toEqual({
      code: 'invoice_not_payable',
      field: 'amount',
      message: 'This draft invoice is a draft: send it before recording a payment',
    });
    expect(
      await refusal(
        recordPayment({
          ctx: wctx,
          input: { invoiceId: depositId, payment: { amount: '525.26', date: '2026-11-26', method: 'bank_transfer' } },
        }),
      ),
    ).toEqual({ code: 'payment_over_balance', field: 'amount', message: 'At most $525.25, the balance of INV-0001' });
    expect(
      await refusal(
        recordPayment({
          ctx: wctx,
          input: { invoiceId: depositId, payment: { amount: '1.005', date: '2026-11-27', method: 'gold' } },
        }),
      ),
    ).toMatchObject({ code: 'invalid_fields', field: 'amount' });

    const first = await recordPayment({
      ctx: wctx,
      input: {
        invoiceId: depositId,
        payment: { amount: '200.00', date: '2026-11-26', method: 'bank transfer', reference: 'TX-1 <i>' },
      },
    });
    expect(first.invoice).toMatchObject({ status: 'partly_paid', paid: 20000, balance: 32525 });
    expect(first.paidInFull).toBe(false);
    expect(
      await refusal(voidInvoice({ ctx: wctx, input: { invoiceId: depositId, reason: 'Wrong customer' } })),
    ).toEqual({
      code: 'invoice_has_payments',
      field: 'reason',
      message:
        'INV-0001 has payments: it cannot be voided; correct it with a credit note, or delete a payment recorded by mistake first',
    });
    // A mistaken payment, deleted: the status goes back.
    const wrong = await recordPayment({
      ctx: wctx,
      input: { invoiceId: depositId, payment: { amount: '25.00', date: '2026-11-25', method: 'cash' }, receipt: false },
    });
    expect(wrong.invoice).toMatchObject({ status: 'partly_paid', balance: 30025 });
    const back = await deletePayment({ ctx: wctx, input: { invoiceId: depositId, paymentId: wrong.paymentId } });
    expect(back).toMatchObject({ status: 'partly_paid', paid: 20000, balance: 32525 });
    expect(back.payments.map((p) => p.id)).toEqual([first.paymentId]);
    expect(
      await refusal(deletePayment({ ctx: wctx, input: { invoiceId: depositId, paymentId: wrong.paymentId } })),
    ).toMatchObject({
      code: 'payment_not_found',
    });

    const rest = await recordPayment({
      ctx: wctx,
      input: { invoiceId: depositId, payment: { amount: '325.25', date: '2026-11-26', method: 'card' } },
    });
    expect(rest.paidInFull).toBe(true);
    expect(rest.invoice).toMatchObject({ status: 'paid', paid: 52525, balance: 0 });
    expect(invoiceJson(rest.invoice).payments).toEqual([
      { id: first.paymentId, date: '2026-11-26', amount: 20000, method: 'bank_transfer', reference: 'TX-1 <i>' },
      { id: rest.paymentId, date: '2026-11-26', amount: 32525, method: 'card', reference: null },
    ]);
    expect(
      await refusal(
        recordPayment({
          ctx: wctx,
          input: { invoiceId: depositId, payment: { amount: '0.01', date: '2026-11-26', method: 'cash' } },
        }),
      ),
    ).toEqual({ code: 'invoice_not_payable', field: 'amount', message: 'INV-0001 is paid in full' });

    // Two receipts (the mistaken payment asked for none) and the sender's notice.
    const sent = await mails(3);
    const bySubject = new Map(sent.map((m) => [m.subject, m]));
    const receipts = sent.filter((m) => m.subject === 'Payment received for invoice INV-0001 from Bright Floors');
    expect(receipts).toHaveLength(2);
    for (const receipt of receipts) {
      expect(receipt.attachments).toHaveLength(0);
      expect(receipt.to).toMatchObject({ text: 'ada@customer.test' });
      expect(receipt.text).toContain('This is a notice of your payment, not an invoice.');
    }
    const receiptTexts = receipts.map((r) => r.text ?? '').join('\n');
    expect(receiptTexts).toContain(
      'recorded your payment of $200.00 on November 26, 2026 (bank transfer, reference TX-1 <i>)',
    );
    expect(receipts.map((r) => r.html).join('')).toContain('reference TX-1 &lt;i&gt;');
    expect(receiptTexts).toContain('Invoice INV-0001 is paid in full.');
    const notice = bySubject.get('Invoice INV-0001 is paid in full')!;
    expect(notice.to).toMatchObject({ text: ws.senderEmail });
    expect(notice.text).toContain('Ada Lovelace paid invoice INV-0001 ($525.25) in full.');
    expect(notice.text).toContain(`/w/${ws.seeded.workspaceId}/invoices/${depositId}`);
  });

  it('the rest subtracts the deposit line by line; the chain adds up to the accepted total; a second rest is refused; a sent invoice never changes', async () => {
    const final = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId, kind: 'final' } });
    expect(final.lines.map((l) => [l.description, l.amount, l.taxes, l.subtractsInvoiceId])).toEqual([
      ['Oak flooring', 98430, ['GST', 'QST'], null],
      ['Labour', 52000, ['GST', 'QST'], null],
      ['Disposal fee', 7500, ['GST'], null],
      ['Loyalty discount', -5000, ['GST', 'QST'], null],
      ['Less INV-0001: Deposit (30 %) on quote Q-0001: work taxed GST + QST', -43629, ['GST', 'QST'], depositId],
      ['Less INV-0001: Deposit (30 %) on quote Q-0001: work taxed GST', -2250, ['GST'], depositId],
    ]);
    // 1,070.51; GST 5 % = 53.5255 → 53.53; QST 9.975 % of 1,018.01 = 101.546… → 101.55.
    expect(final.subtotal).toBe(107051);
    expect(final.taxes.map((t) => t.amount)).toEqual([5353, 10155]);
    expect(final.total).toBe(122559);
    const deposit = await getInvoice({ ctx: wctx, input: { ref: 'inv-1' } });
    expect(deposit.number).toBe('INV-0001');
    expect(deposit.total + final.total).toBe(175084);

    expect(await refusal(createInvoiceFromQuote({ ctx: wctx, input: { quoteId, kind: 'final' } }))).toEqual({
      code: 'already_invoiced',
      field: 'kind',
      message: 'A draft invoice already invoices this for Q-0001; void it first to make another',
    });
    expect(await refusal(createInvoiceFromQuote({ ctx: wctx, input: { quoteId, kind: 'deposit' } }))).toMatchObject({
      code: 'already_invoiced',
    });
    expect(await refusal(createInvoiceFromQuote({ ctx: wctx, input: { quoteId, kind: 'invoice' } }))).toMatchObject({
      code: 'invalid_fields',
      field: 'kind',
    });
    expect(
      await refusal(
        addInvoiceLine({
          ctx: wctx,
          input: { invoiceId: depositId, line: { description: 'Extra', quantity: '1', unit: 'fixed', price: '1' } },
        }),
      ),
    ).toEqual({
      code: 'invoice_not_editable',
      field: 'lines',
      message: 'INV-0001 is paid: a sent invoice is never changed; void it, or correct it with a credit note',
    });
    expect(
      await refusal(updateInvoice({ ctx: wctx, input: { invoiceId: depositId, details: { note: 'Changed' } } })),
    ).toMatchObject({ code: 'invoice_not_editable', field: 'details' });
    // A deposit the rest subtracts is not voided from under it.
    expect(await refusal(voidInvoice({ ctx: wctx, input: { invoiceId: depositId, reason: 'x' } }))).toMatchObject({
      code: 'invoice_has_payments',
    });

    const sent = await sendInvoice({ ctx: wctx, input: { invoiceId: final.id, by: { userId: ws.senderId } } });
    expect(sent.invoice).toMatchObject({ number: 'INV-0002', kind: 'final', balance: 122559 });
    const a = await recordPayment({
      ctx: wctx,
      input: {
        invoiceId: final.id,
        payment: { amount: '600.00', date: '2026-11-26', method: 'cheque', reference: '1042' },
      },
    });
    expect(a.invoice).toMatchObject({ status: 'partly_paid', balance: 62559 });
    const b = await recordPayment({
      ctx: wctx,
      input: { invoiceId: final.id, payment: { amount: '625.59', date: '2026-11-26', method: 'bank_transfer' } },
    });
    expect(b.invoice).toMatchObject({ status: 'paid', paid: 122559, balance: 0 });
    expect(await refusal(createInvoiceFromQuote({ ctx: wctx, input: { quoteId, kind: 'final' } }))).toEqual({
      code: 'already_invoiced',
      field: 'kind',
      message: 'INV-0002 already invoices this for Q-0001; void it first to make another',
    });

    const chain = await invoiceChain({ ctx: wctx, input: { quoteId } });
    expect(chain.quote).toMatchObject({ number: 'Q-0001', status: 'accepted', total: 175084 });
    expect(chain.documents.map((d) => [d.number, d.kind, d.status, d.total, d.balance])).toEqual([
      ['INV-0001', 'deposit', 'paid', 52525, 0],
      ['INV-0002', 'final', 'paid', 122559, 0],
    ]);
  });

  it('a void invoice keeps its number; credit notes count apart, reduce the balance, and a credit beyond what is unpaid is owed back', async () => {
    const q = await acceptedQuote(world, ws, {
      deposit: 'none',
      customer: 'Grace Hopper',
      lines: [{ description: 'Tiling', quantity: '10', unit: 'm2', price: '100.00', taxes: ['GST'] }],
    });
    expect(
      await refusal(createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'deposit' } })),
    ).toMatchObject({
      code: 'invalid_fields',
      field: 'kind',
    });
    const first = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'invoice' } });
    expect(first.total).toBe(105000);
    await sendInvoice({ ctx: wctx, input: { invoiceId: first.id, by: { userId: ws.senderId } } });
    expect(
      await refusal(createCreditNote({ ctx: wctx, input: { invoiceId: first.id, reason: 'Too early' } })),
    ).toMatchObject({ code: 'invoice_not_creditable', field: 'lines' });
    const voided = await voidInvoice({
      ctx: wctx,
      input: { invoiceId: first.id, reason: 'Sent to the wrong address' },
    });
    expect(voided).toMatchObject({ number: 'INV-0003', status: 'void', voidReason: 'Sent to the wrong address' });
    expect(
      await refusal(
        recordPayment({
          ctx: wctx,
          input: { invoiceId: first.id, payment: { amount: '1.00', date: '2026-11-26', method: 'cash' } },
        }),
      ),
    ).toEqual({ code: 'invoice_not_payable', field: 'amount', message: 'INV-0003 is void: it takes no payment' });

    const again = await createInvoiceFromQuote({ ctx: wctx, input: { quoteId: q.quoteId, kind: 'invoice' } });
    const sent = await sendInvoice({ ctx: wctx, input: { invoiceId: again.id, by: { userId: ws.senderId } } });
    expect(sent.invoice.number).toBe('INV-0004');
    await recordPayment({
      ctx: wctx,
      input: {
        invoiceId: again.id,
        payment: { amount: '1000.00', date: '2026-11-26', method: 'cash' },
        receipt: false,
      },
    });
    const note = await createCreditNote({ ctx: wctx, input: { invoiceId: again.id, reason: 'Job cancelled' } });
    expect(note).toMatchObject({
      kind: 'credit_note',
      status: 'draft',
      number: null,
      total: 105000,
      creditReason: 'Job cancelled',
    });
    expect(note.lines.map((l) => l.creditsLineId)).toEqual(again.lines.map((l) => l.id));
    // A draft credit note does not count yet.
    expect((await getInvoice({ ctx: wctx, input: { ref: again.id } })).balance).toBe(5000);
    expect(
      await refusal(createCreditNote({ ctx: wctx, input: { invoiceId: again.id, reason: 'Twice' } })),
    ).toMatchObject({ code: 'invoice_not_creditable' });
    const cn = await sendInvoice({ ctx: wctx, input: { invoiceId: note.id, by: { userId: ws.senderId } } });
    expect(cn.invoice).toMatchObject({
      number: 'CN-0001',
      dueDate: null,
      balance: 0,
      creditOf: { id: again.id, number: 'INV-0004' },
    });
    // A sent credit note asks for nothing: the totals count the open invoices only, as the list shows them.
    expect(cn.invoice.status).toBe('sent');
    const open = (await listInvoices({ ctx: wctx, input: { limit: 1000 } })).filter(
      (r) => r.kind !== 'credit_note' && ['sent', 'viewed', 'partly_paid'].includes(r.status),
    );
    expect(await outstandingTotals({ ctx: wctx, input: {} })).toMatchObject({
      outstanding: open.reduce((sum, r) => sum + r.balance, 0),
      outstandingCount: open.length,
    });
    const credited = await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } });
    // 1,050.00 − 1,000.00 paid − 1,050.00 credited: 1,000.00 owed back.
    expect(credited).toMatchObject({
      status: 'paid',
      paid: 100000,
      credited: 105000,
      balance: -100000,
      owedBack: 100000,
    });
    expect(invoiceJson(credited)).toMatchObject({ balance: -100000, credits: [note.id] });
    await renderDueDocuments(world.ctx, { limit: 50 });
    const cnPdf = await invoicePdf({ ctx: wctx, input: { invoiceId: note.id } });
    expect(cnPdf.fileName).toBe('CN-0001.pdf');
    const text = pdfText(cnPdf.pdf!);
    for (const value of [
      'CREDIT NOTE',
      'CN-0001',
      'Credits INV-0004',
      'Total credited $1,050.00',
      'Reason',
      'Job cancelled',
    ])
      expect(text, value).toContain(value);
    expect(text).not.toContain('Due date');

    // Voiding the sent credit note gives the balance back.
    const back = await voidInvoice({ ctx: wctx, input: { invoiceId: note.id, reason: 'Not cancelled after all' } });
    expect(back).toMatchObject({ number: 'CN-0001', status: 'void' });
    expect(await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } })).toMatchObject({
      status: 'partly_paid',
      credited: 0,
      balance: 5000,
    });
  });

  it('a blank invoice from a lead: lines added, changed and removed on the draft, then sent', async () => {
    const leadId = (await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } })).leadId!;
    const blank = await createBlankInvoice({ ctx: wctx, input: { leadId } });
    expect(blank).toMatchObject({ kind: 'invoice', status: 'draft', quoteId: null, lines: [], total: 0 });
    expect(blank.customer.name).toBe('Grace Hopper');
    expect(blank.taxRates.map((t) => t.name)).toEqual(['GST', 'QST']);
    let v = await addInvoiceLine({
      ctx: wctx,
      input: { invoiceId: blank.id, line: { description: 'Call-out', quantity: '1', unit: 'fixed', price: '80' } },
    });
    expect(v.lines[0]).toMatchObject({ amount: 8000, taxes: ['GST', 'QST'] });
    v = await addInvoiceLine({
      ctx: wctx,
      input: {
        invoiceId: blank.id,
        line: { description: 'Grout', quantity: '2.345', unit: 'each', price: '9.99', taxes: ['gst'] },
      },
    });
    expect(v.lines[1]).toMatchObject({ quantity: 235, amount: 2348, taxes: ['GST'] });
    expect(
      await refusal(
        addInvoiceLine({
          ctx: wctx,
          input: {
            invoiceId: blank.id,
            line: { description: '', quantity: 'x', unit: 'm2', price: '1', taxes: ['VAT'] },
          },
        }),
      ),
    ).toMatchObject({ code: 'invalid_fields' });
    v = await updateInvoiceLine({
      ctx: wctx,
      input: {
        invoiceId: blank.id,
        lineId: v.lines[0]!.id,
        line: { description: 'Call-out', quantity: '1', unit: 'fixed', price: '90' },
      },
    });
    expect(v.lines[0]!.amount).toBe(9000);
    v = await removeInvoiceLine({ ctx: wctx, input: { invoiceId: blank.id, lineId: v.lines[1]!.id } });
    v = await updateInvoice({
      ctx: wctx,
      input: { invoiceId: blank.id, details: { paymentTermsDays: '0', note: 'Thanks' } },
    });
    expect(v).toMatchObject({ paymentTermsDays: 0, note: 'Thanks', subtotal: 9000, total: 10348 });
    expect(
      await refusal(updateInvoice({ ctx: wctx, input: { invoiceId: blank.id, details: { paymentTermsDays: '400' } } })),
    ).toMatchObject({ code: 'invalid_fields', field: 'paymentTermsDays' });
    const sent = await sendInvoice({ ctx: wctx, input: { invoiceId: blank.id, by: { userId: null } } });
    expect(sent.invoice).toMatchObject({ number: 'INV-0005', issueDate: '2026-11-26', dueDate: '2026-11-26' });
  });

  it("the customer's link: viewed by its script; overdue is derived from the due date; the list's filters and totals", async () => {
    const inv = await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } });
    const token = new URL(inv.customerUrl!).pathname.split('/').pop()!;
    const page = await openInvoiceByToken({ ctx: world.ctx, input: { token } });
    expect(page).toMatchObject({ state: 'open', quote: 'Q-0002', business: { name: 'Bright Floors' } });
    expect(page.invoice).toMatchObject({ number: 'INV-0004', balance: 5000, viewCount: 0 });
    expect(await recordInvoiceView({ ctx: world.ctx, input: { token } })).toMatchObject({ first: true });
    expect(await recordInvoiceView({ ctx: world.ctx, input: { token } })).toMatchObject({ first: false });
    expect(await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } })).toMatchObject({
      status: 'partly_paid',
      viewCount: 2,
    });
    expect(await refusal(openInvoiceByToken({ ctx: world.ctx, input: { token: 'A'.repeat(22) } }))).toMatchObject({
      code: 'invoice_not_found',
    });

    const numbers = async (status?: Parameters<typeof listInvoices>[0]['input']['status']) =>
      (await listInvoices({ ctx: wctx, input: status ? { status } : {} })).map((r) => r.number ?? r.kind);
    expect(await numbers('paid')).toEqual(['INV-0002', 'INV-0001']);
    expect(await numbers('void')).toEqual(['CN-0001', 'INV-0003']);
    expect(await numbers('partly_paid')).toEqual(['INV-0004']);
    expect(await numbers('sent')).toEqual(['INV-0005']);
    expect(await numbers('draft')).toEqual(['invoice']);
    expect(await numbers('overdue')).toEqual([]);
    expect(await outstandingTotals({ ctx: wctx, input: {} })).toMatchObject({
      currency: 'CAD',
      outstanding: 5000 + 10348,
      outstandingCount: 2,
      overdue: 0,
    });
    // INV-0005 was due on receipt (26 Nov), INV-0004 on 10 Dec: in Toronto, 27 Nov makes the first overdue.
    clock.advance(DAY);
    expect(await numbers('overdue')).toEqual(['INV-0005']);
    expect(invoiceJson(await getInvoice({ ctx: wctx, input: { ref: 'INV-0005' } }))).toMatchObject({ overdue: true });
    expect('overdue' in invoiceJson(await getInvoice({ ctx: wctx, input: { ref: 'INV-0004' } }))).toBe(false);
    clock.advance(14 * DAY);
    expect(await numbers('overdue')).toEqual(['INV-0005', 'INV-0004']);
    expect(await outstandingTotals({ ctx: wctx, input: {} })).toMatchObject({ overdue: 15348, overdueCount: 2 });
    clock.advance(-15 * DAY);
  });

  it('the audit log records every invoice created, sent, voided and credited and every payment, by ids and amounts only', async () => {
    const rows = await world.store.db
      .selectFrom('audit_log')
      .select(['action', 'target_ids', 'details'])
      .where('workspace_id', '=', ws.seeded.workspaceId)
      .where('action', 'like', 'invoice.%')
      .execute();
    const count = (action: string) => rows.filter((r) => r.action === action).length;
    expect(count('invoice.created')).toBe(6);
    expect(count('invoice.credited')).toBe(1);
    expect(count('invoice.sent')).toBe(6);
    expect(count('invoice.voided')).toBe(2);
    expect(count('invoice.payment_recorded')).toBe(6);
    expect(count('invoice.payment_deleted')).toBe(1);
    expect(count('invoice.viewed')).toBe(1);
    const deleted = rows.find((r) => r.action === 'invoice.payment_deleted')!;
    expect(JSON.parse(deleted.details)).toEqual({ amount: 2500, balance: 32525 });
    const all = JSON.stringify(rows);
    for (const personal of ['Ada', 'Grace', 'customer.test', 'TX-1', 'wrong address'])
      expect(all).not.toContain(personal);
  });
});
