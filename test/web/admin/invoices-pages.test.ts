import { escapeHtml } from '../../../src/web/html.js';
import { inWorkspace } from '../../../src/domain/context.js';
import { expect, it } from 'vitest';
import { acceptQuote } from '../../../src/domain/quotes/accept-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

describeEachBackend('the invoice pages', (backend) => {
  const f = useAdminFixture(backend);
  const ws = () => `/w/${f.home.workspaceId}`;
  const get = (url: string, as: Person = f.member) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string | string[]>, as: Person = f.member) => {
    const form = new URLSearchParams({ _csrf: as.csrf });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    return f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  };
  const idOf = (location: unknown) => String(location).split('/invoices/')[1]!.split(/[?#]/)[0]!;
  const row = (id: string) =>
    f.world.store.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A quote of 10 m² at 40.00 (400.00, no taxes), accepted, asking `deposit` ('30%' or 'none'). */
  async function accepted(deposit: string): Promise<string> {
    const workspaceId = f.home.workspaceId;
    await updateWorkspaceSettings({ ctx: f.world.ctx, input: { workspaceId, deposit } });
    const draft = await createQuote({
      ctx: inWorkspace(f.world.ctx, workspaceId),
      input: { leadId: f.extra.homeLeadId! },
    });
    await addQuoteLine({
      ctx: inWorkspace(f.world.ctx, workspaceId),
      input: {
        quoteId: draft.id,
        line: { description: 'Oak <b>floor</b>', quantity: '10', unit: 'm2', price: '40' },
      },
    });
    const sent = await sendQuote({
      ctx: inWorkspace(f.world.ctx, workspaceId),
      input: { quoteId: draft.id, by: { userId: f.owner.userId, label: 'Owner' } },
    });
    await acceptQuote({ ctx: f.world.ctx, input: { token: sent.token, revision: 1, name: 'Ann', agreed: true } });
    return draft.id;
  }

  it('an accepted quote with a 30 % deposit: Invoice deposit, Send, a payment, Invoice the rest, two payments, paid; the chain on the quote, the lead and each invoice; a second rest refused beside the buttons', async () => {
    const quoteId = await accepted('30%');
    const quotePage = await get(`${ws()}/quotes/${quoteId}`);
    expect(quotePage.body).toContain('id="quote-invoices"');
    expect(quotePage.body).toContain('The quote asks a deposit of $120.00');
    expect(quotePage.body).toMatch(/name="kind" value="deposit"[^>]*>Invoice deposit</);
    expect(quotePage.body).toMatch(/name="kind" value="final"[^>]*>Invoice the rest</);
    expect(quotePage.body).not.toMatch(/name="kind" value="invoice"/);

    const made = await post(`${ws()}/quotes/${quoteId}/invoices`, { kind: 'deposit' });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toMatch(/\?notice=invoice-created$/);
    const depositId = idOf(made.headers.location);
    const draft = await get(`${ws()}/invoices/${depositId}?notice=invoice-created`);
    expect(draft.statusCode).toBe(200);
    expect(draft.body).toContain('Draft deposit invoice');
    expect(draft.body).toContain('id="invoice-editor"');
    expect(draft.body).toMatch(/id="invoice-total">\$120\.00</);
    // Back to its lead, named as the lead is (escaped), without marking the lead opened.
    const named = await f.world.store.db
      .selectFrom('leads')
      .select(['name', 'email'])
      .where('id', '=', f.extra.homeLeadId!)
      .executeTakeFirstOrThrow();
    expect(draft.body).toContain(
      `<a href="${ws()}/leads/${f.extra.homeLeadId}">← ${escapeHtml(named.name ?? named.email ?? '')}</a>`,
    );
    // The rest waits for the deposit to be sent: refused beside the buttons, in the verb's words.
    const early = await post(`${ws()}/quotes/${quoteId}/invoices`, { kind: 'final' });
    expect(early.statusCode).toBeGreaterThanOrEqual(400);
    expect(early.body).toMatch(/<p class="field-error" id="f-kind-error">[^<]+</);

    // Payment terms and a title saved from the editor, then Send (email is off: the link to copy).
    const sent = await post(`${ws()}/invoices/${depositId}/send`, {
      title: 'Deposit <i>x</i>',
      note: '',
      customerName: 'Ann',
      customerEmail: '',
      customerPhone: '',
      customerAddress: '',
      paymentTermsDays: '7',
      sendMessage: 'See you Monday',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${ws()}/invoices/${depositId}?notice=invoice-sent`);
    const deposit = await row(depositId);
    expect(deposit.status).toBe('sent');
    // The fixture sent two invoices before: the next number is the third.
    expect(deposit.number).toBe('INV-0003');
    expect(Number(deposit.payment_terms_days)).toBe(7);
    // The message typed beside Send is saved with it (the email carries it: test/web/invoice-page.test.ts).
    expect(deposit.send_message).toBe('See you Monday');
    const sentPage = await get(`${ws()}/invoices/${depositId}`);
    expect(sentPage.body).toContain('Deposit &lt;i&gt;x&lt;/i&gt;');
    expect(sentPage.body).toContain('id="customer-link"');
    expect(sentPage.body).toMatch(/id="invoice-balance">\$120\.00</);
    expect(sentPage.body).toContain('id="record-payment"');

    const paid = await post(`${ws()}/invoices/${depositId}/payments`, {
      amount: '120.00',
      date: '2020-02-01',
      method: 'bank_transfer',
      reference: 'TX <1>',
    });
    expect(paid.headers.location).toBe(`${ws()}/invoices/${depositId}?notice=payment-recorded`);
    expect((await row(depositId)).status).toBe('paid');
    const paidPage = await get(`${ws()}/invoices/${depositId}`);
    expect(paidPage.body).toContain('TX &lt;1&gt;');
    expect(paidPage.body).toMatch(/id="invoice-balance">\$0\.00</);
    expect(paidPage.body).not.toContain('id="record-payment"');

    const rest = await post(`${ws()}/quotes/${quoteId}/invoices`, { kind: 'final' });
    expect(rest.statusCode).toBe(303);
    const restId = idOf(rest.headers.location);
    expect(Number((await row(restId)).total)).toBe(28000);
    const again = await post(`${ws()}/quotes/${quoteId}/invoices`, { kind: 'final' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toMatch(/<p class="field-error" id="f-kind-error">[^<]*already invoices[^<]*</);
    expect((await post(`${ws()}/invoices/${restId}/send`, {})).statusCode).toBe(303);

    // Two partial payments: 100.00 and 180.00 make it paid; 0.01 more is refused beside the amount.
    await post(`${ws()}/invoices/${restId}/payments`, { amount: '100.00', date: '2020-02-02', method: 'card' });
    expect((await row(restId)).status).toBe('partly_paid');
    const over = await post(`${ws()}/invoices/${restId}/payments`, {
      amount: '180.01',
      date: '2020-02-03',
      method: 'cash',
    });
    expect(over.statusCode).toBe(422);
    expect(over.body).toMatch(/<p class="field-error" id="f-amount-error">At most \$180\.00, the balance of INV-0004</);
    expect(over.body).toContain('value="180.01"');
    await post(`${ws()}/invoices/${restId}/payments`, { amount: '180.00', date: '2020-02-03', method: 'cheque' });
    const restRow = await row(restId);
    expect(restRow.status).toBe('paid');
    expect(Number(restRow.paid)).toBe(28000);
    expect(Number(restRow.balance)).toBe(0);

    // The chain on the quote's page, on each invoice's page, and the lead's list.
    const chain = await get(`${ws()}/quotes/${quoteId}`);
    expect(chain.body).toContain(`href="${ws()}/invoices/${depositId}">INV-0003</a>`);
    expect(chain.body).toContain(`href="${ws()}/invoices/${restId}">INV-0004</a>`);
    expect(chain.body).not.toMatch(/name="kind" value="final"/);
    const restPage = await get(`${ws()}/invoices/${restId}`);
    expect(restPage.body).toContain(`href="${ws()}/quotes/${quoteId}"`);
    expect(restPage.body).toContain(`href="${ws()}/invoices/${depositId}">INV-0003</a>`);
    expect(restPage.body).toContain('Already invoiced');
    const lead = await get(`${ws()}/leads/${f.extra.homeLeadId}`);
    expect(lead.body).toContain('id="lead-invoices-list"');
    expect(lead.body).toContain(`href="${ws()}/invoices/${restId}">INV-0004</a>`);

    // The Invoices screen: filters and totals.
    const screen = await get(`${ws()}/invoices?status=paid`);
    expect(screen.statusCode).toBe(200);
    expect(screen.body).toContain('>INV-0003</a>');
    expect(screen.body).toContain('>INV-0004</a>');
    expect(screen.body).toMatch(/id="outstanding-total">\$[\d,.]+</);
    // The way to the accountant's export.
    expect(screen.body).toContain(`href="${ws()}/invoices/export" id="export-link">Export for the accountant</a>`);
    const drafts = await get(`${ws()}/invoices?status=draft`);
    expect(drafts.body).not.toContain('>INV-0003</a>');
    // The nav's Invoices entry.
    expect(drafts.body).toMatch(new RegExp(`<a href="${ws()}/invoices"[^>]*aria-current="page"[^>]*>Invoices`));
    // Amounts in the workspace's locale.
    await updateWorkspaceSettings({ ctx: f.world.ctx, input: { workspaceId: f.home.workspaceId, locale: 'de-DE' } });
    const german = await get(`${ws()}/invoices?status=paid`);
    await updateWorkspaceSettings({ ctx: f.world.ctx, input: { workspaceId: f.home.workspaceId, locale: 'en-US' } });
    expect(german.body).toMatch(/>120,00\s\$</);
  });

  it('a draft is edited like the quote builder: lines changed, added and removed; every bad field refused beside it and nothing saved', async () => {
    const quoteId = await accepted('none');
    const made = await post(`${ws()}/quotes/${quoteId}/invoices`, { kind: 'invoice' });
    const id = idOf(made.headers.location);
    const lines = await f.world.store.db
      .selectFrom('invoice_lines')
      .select(['id'])
      .where('invoice_id', '=', id)
      .execute();
    const lineId = lines[0]!.id;
    const base = {
      title: '',
      note: '',
      customerName: 'Ann',
      customerEmail: '',
      customerPhone: '',
      customerAddress: '',
      paymentTermsDays: '14',
      [`line-${lineId}-present`]: '1',
      [`line-${lineId}-description`]: 'Oak floor',
      [`line-${lineId}-quantity`]: '12',
      [`line-${lineId}-unit`]: 'm2',
      [`line-${lineId}-price`]: '40',
    };
    const bad = await post(`${ws()}/invoices/${id}`, {
      ...base,
      [`line-${lineId}-price`]: 'forty',
      paymentTermsDays: '400',
      'new-description': 'Skirting',
      'new-price': '',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(new RegExp(`<p class="field-error" id="f-line-${lineId}-price-error">[^<]+<`));
    expect(bad.body).toMatch(/<p class="field-error" id="f-paymentTermsDays-error">[^<]+</);
    expect(bad.body).toMatch(/<p class="field-error" id="f-new-price-error">[^<]+</);
    expect(bad.body).toContain('value="forty"');
    expect(Number((await row(id)).total)).toBe(40000);

    const saved = await post(`${ws()}/invoices/${id}`, {
      ...base,
      'new-description': 'Skirting',
      'new-quantity': '2',
      'new-unit': 'm',
      'new-price': '10',
    });
    expect(saved.headers.location).toBe(`${ws()}/invoices/${id}?notice=invoice-saved`);
    expect(Number((await row(id)).total)).toBe(48000 + 2000);
    const removed = await post(`${ws()}/invoices/${id}`, { ...base, do: `remove:${lineId}` });
    expect(removed.statusCode).toBe(303);
    expect(Number((await row(id)).total)).toBe(2000);
  });

  it('refusals in their words beside their fields: a payment on a draft and on a void invoice, an edit of a sent one, a void with payments, a credit note of some lines', async () => {
    const draftId = f.extra.homeDraftInvoiceId!;
    const onDraft = await post(`${ws()}/invoices/${draftId}/payments`, {
      amount: '1.00',
      date: '2020-01-01',
      method: 'cash',
    });
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.body).toContain('This draft invoice is a draft: send it before recording a payment');

    const sentId = f.extra.homeSentInvoiceId!;
    const sentNumber = (await row(sentId)).number!;
    const edit = await post(`${ws()}/invoices/${sentId}`, { title: 'Changed' });
    expect(edit.statusCode).toBe(409);
    expect(edit.body).toContain(`${sentNumber} is sent: a sent invoice is never changed`);
    expect((await row(sentId)).title).toBeNull();

    const noReason = await post(`${ws()}/invoices/${sentId}/void`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toMatch(/<p class="field-error" id="f-reason-error">Say why it is void/);
    const voided = await post(`${ws()}/invoices/${sentId}/void`, { reason: 'Sent <twice>' });
    expect(voided.headers.location).toBe(`${ws()}/invoices/${sentId}?notice=invoice-voided`);
    const voidPage = await get(`${ws()}/invoices/${sentId}`);
    expect(voidPage.body).toContain('Sent &lt;twice&gt;');
    const onVoid = await post(`${ws()}/invoices/${sentId}/payments`, {
      amount: '1.00',
      date: '2020-01-01',
      method: 'cash',
    });
    expect(onVoid.statusCode).toBe(409);
    expect(onVoid.body).toMatch(
      new RegExp(`<p class="field-error" id="f-amount-error">${sentNumber} is void: it takes no payment<`),
    );

    const paidId = f.extra.homePaidInvoiceId!;
    const paidNumber = (await row(paidId)).number!;
    const withPayments = await post(`${ws()}/invoices/${paidId}/void`, { reason: 'Wrong' });
    expect(withPayments.statusCode).toBe(409);
    expect(withPayments.body).toMatch(
      new RegExp(`<p class="field-error" id="f-reason-error">${paidNumber} has payments: it cannot be voided`),
    );
    expect((await row(paidId)).status).toBe('partly_paid');

    const credit = await post(`${ws()}/invoices/${paidId}/credit`, { reason: 'Goodwill' });
    expect(credit.statusCode).toBe(303);
    const noteId = idOf(credit.headers.location);
    const note = await row(noteId);
    expect(note.kind).toBe('credit_note');
    expect(note.credit_of).toBe(paidId);
    const notePage = await get(`${ws()}/invoices/${noteId}`);
    expect(notePage.body).toContain(`href="${ws()}/invoices/${paidId}">${paidNumber}</a>`);
    const twice = await post(`${ws()}/invoices/${paidId}/credit`, { reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toMatch(/<p class="field-error" id="f-lines-error">[^<]*already credited[^<]*</);

    // A mistaken payment deleted: the balance back, audited.
    const deleted = await post(`${ws()}/invoices/${paidId}/payments/${f.extra.homePaymentId}/delete`, {});
    expect(deleted.headers.location).toBe(`${ws()}/invoices/${paidId}?notice=payment-deleted`);
    expect(Number((await row(paidId)).paid)).toBe(0);
  });

  it('Settings → Invoices: the prefix, payment terms, payment instructions and deposit saved; a bad value refused beside its field, nothing saved', async () => {
    const page = await get(`${ws()}/settings/invoices`, f.owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/name="invoicePrefix"[^>]* value="INV-"/);
    expect(page.body).toMatch(/name="paymentTerms"[^>]* value="14"/);
    expect((await get(`${ws()}/settings`, f.owner)).body).toContain(`href="${ws()}/settings/invoices"`);
    const fields = { invoicePrefix: 'F-', paymentTerms: '30', paymentInstructions: 'Bank <transfer>', deposit: '25%' };
    const bad = await post(
      `${ws()}/settings/invoices`,
      { ...fields, invoicePrefix: 'CN-', paymentTerms: '366' },
      f.owner,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/<p class="field-error" id="f-invoicePrefix-error">CN- numbers the credit notes/);
    expect(bad.body).toMatch(/<p class="field-error" id="f-paymentTerms-error">Payment terms are/);
    expect(bad.body).toContain('Bank &lt;transfer&gt;');
    const workspace = () =>
      f.world.store.db
        .selectFrom('workspaces')
        .selectAll()
        .where('id', '=', f.home.workspaceId)
        .executeTakeFirstOrThrow();
    expect((await workspace()).invoice_prefix).not.toBe('CN-');
    const saved = await post(`${ws()}/settings/invoices`, fields, f.owner);
    expect(saved.headers.location).toBe(`${ws()}/settings/invoices?notice=settings-saved`);
    const row = await workspace();
    expect(row.invoice_prefix).toBe('F-');
    expect(Number(row.payment_terms_days)).toBe(30);
    expect(row.payment_instructions).toBe('Bank <transfer>');
    expect(Number(row.deposit_percent)).toBe(25000);
    const again = await get(`${ws()}/settings/invoices`, f.owner);
    expect(again.body).toMatch(/name="deposit"[^>]* value="25%"/);
    const none = await post(`${ws()}/settings/invoices`, { ...fields, deposit: '' }, f.owner);
    expect(none.statusCode).toBe(303);
    expect((await workspace()).deposit_percent).toBeNull();
  });
});
