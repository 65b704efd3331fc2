import { formatDay } from '../../../domain/dates.js';
import type { StoredDocument } from '../../../domain/documents/stored-document.js';
import type { QuoteChain } from '../../../domain/invoices/invoice-chain.js';
import type { InvoiceKind, InvoiceStatus } from '../../../domain/invoices/invoice-states.js';
import {
  PAYMENT_METHODS,
  type InvoiceLineView,
  type InvoiceView,
  type PaymentMethod,
} from '../../../domain/invoices/invoice-view.js';
import type { InvoiceFilter, InvoiceSummary, OutstandingTotals } from '../../../domain/invoices/list-invoices.js';
import { amountText, formatDecimal, formatMoney, formatQuantity, rateText } from '../../../domain/money.js';
import { UNIT_LABELS, UNITS, type Unit } from '../../../domain/price-list/price-list-item.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, selectField, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { cursorPager } from '../pagers.js';

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  partly_paid: 'Partly paid',
  paid: 'Paid',
  void: 'Void',
};

export const KIND_LABELS: Record<InvoiceKind, string> = {
  invoice: 'Invoice',
  deposit: 'Deposit invoice',
  final: 'Invoice of the rest',
  credit_note: 'Credit note',
};

const FILTER_LABELS: Record<InvoiceFilter, string> = {
  draft: 'Draft',
  sent: 'Sent',
  overdue: 'Overdue',
  partly_paid: 'Partly paid',
  paid: 'Paid',
  void: 'Void',
};

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  cheque: 'Cheque',
  other: 'Other',
};

const INVOICE_NOTICES: Record<string, string> = {
  'invoice-created': 'A draft was made. Nothing reaches the customer until you press Send.',
  'invoice-saved': 'Saved. The totals are recalculated.',
  'invoice-sent-email': 'Sent. The invoice is on its way to the customer by email, with its PDF and the link below.',
  'invoice-sent': 'Sent. No email went out: copy the customer’s link below and send it to them.',
  'payment-recorded': 'The payment is recorded and the balance is updated.',
  'payment-recorded-receipt': 'The payment is recorded; the customer gets a receipt by email.',
  'payment-deleted': 'The payment was deleted and the balance is computed again.',
  'invoice-voided': 'The invoice is void. It keeps its number; its link says it is void.',
  'credit-created': 'A draft credit note was made. Send it to reduce the invoice’s balance.',
  'pdf-retried': 'The PDF is being made again. This page shows when it is ready.',
  'pdf-pending': 'The PDF is still being made; it is usually ready within seconds. Try PDF again in a moment.',
};

export function invoiceNotice(code: string | undefined): SafeHtml | string {
  const text = code ? INVOICE_NOTICES[code] : undefined;
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}

export function invoiceBadge(i: { status: InvoiceStatus; overdue: boolean }): SafeHtml {
  return html`<span class="status inv-${i.status}">${INVOICE_STATUS_LABELS[i.status]}</span>${
    i.overdue ? html` <span class="status overdue">Overdue</span>` : ''
  }`;
}

/** `INV-0003`, or what a draft is ("Draft deposit invoice"). */
export function invoiceName(i: { number: string | null; kind: InvoiceKind }): string {
  if (i.number) return i.number;
  return `Draft ${KIND_LABELS[i.kind].toLowerCase()}`;
}

const unitLabel = (unit: string) => UNIT_LABELS[unit as Unit] ?? unit;
const day = (value: string | null, locale: string) =>
  value ? html`<time datetime="${value}">${formatDay(value, locale)}</time>` : '—';

/** Invoices as rows: the Invoices screen's list and the lead page's. */
export function invoicesTable(
  call: WorkspaceCall,
  invoices: InvoiceSummary[],
  locale: string,
  id = 'invoices',
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<table class="list invoices wide-labels" id="${id}">
<thead><tr><th scope="col">Invoice</th><th scope="col">Customer</th><th scope="col">Status</th>
<th scope="col" class="amount">Total</th><th scope="col" class="amount">Balance</th><th scope="col">Issued</th>
<th scope="col">Due</th></tr></thead>
<tbody>${invoices.map(
    (i) => html`<tr>
<td data-label="Invoice"><a href="${ws}/invoices/${i.id}">${invoiceName(i)}</a>${
      i.kind === 'invoice' ? '' : html`<span class="muted small"> · ${KIND_LABELS[i.kind]}</span>`
    }</td>
<td data-label="Customer">${i.customerName ?? html`<span class="muted">—</span>`}</td>
<td data-label="Status">${invoiceBadge(i)}</td>
<td data-label="Total" class="amount">${formatMoney(i.total, i.currency, locale)}</td>
<td data-label="Balance" class="amount">${
      i.kind === 'credit_note' ? '—' : formatMoney(i.balance, i.currency, locale)
    }</td>
<td data-label="Issued" class="num">${day(i.issueDate, locale)}</td>
<td data-label="Due" class="num">${day(i.dueDate, locale)}</td>
</tr>`,
  )}</tbody>
</table>`;
}

export interface InvoicesScreenInput {
  invoices: InvoiceSummary[];
  status: InvoiceFilter | undefined;
  totals: OutstandingTotals;
  locale: string;
  /** The cursor this page was opened with, and the next page's. */
  cursor: string | undefined;
  next: string | null;
}

function totalsCards(totals: OutstandingTotals, locale: string): SafeHtml {
  const money = (minor: number, currency = totals.currency) => formatMoney(minor, currency, locale);
  return html`<div class="invoice-totals" id="invoice-totals">
<section class="card stat" aria-labelledby="outstanding-heading"><h2 id="outstanding-heading">Outstanding</h2>
<p class="figure" id="outstanding-total">${money(totals.outstanding)}</p>
<p class="muted small">${totals.outstandingCount} open ${
    totals.outstandingCount === 1 ? 'invoice' : 'invoices'
  }</p></section>
<section class="card stat" aria-labelledby="overdue-heading"><h2 id="overdue-heading">Overdue</h2><p class="figure${
    totals.overdue > 0 ? ' late' : ''
  }" id="overdue-total">${money(totals.overdue)}</p><p class="muted small">${totals.overdueCount} past ${
    totals.overdueCount === 1 ? 'its' : 'their'
  } due date</p></section>
${
  totals.otherCurrencies.length
    ? html`<p class="muted small" id="other-currencies">In other currencies: ${totals.otherCurrencies
        .map((c) => `${money(c.outstanding, c.currency)} outstanding, ${money(c.overdue, c.currency)} overdue`)
        .join('; ')}</p>`
    : ''
}
</div>`;
}

export function invoicesScreen(call: WorkspaceCall, input: InvoicesScreenInput): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const base = `${ws}/invoices${input.status ? `?status=${input.status}` : ''}`;
  return html`<div class="page-head"><div><h1>Invoices</h1><p class="muted">${
    input.status === 'overdue' ? 'The longest overdue first.' : 'Newest first.'
  } Invoice an accepted quote from its page, or start a blank invoice from a lead’s page.</p></div>
<div class="actions"><a class="button secondary"
  href="${ws}/invoices/export" id="export-link">Export for the accountant</a></div></div>
${totalsCards(input.totals, input.locale)}
<nav aria-label="Status"><ul class="status-filters">
<li><a href="${ws}/invoices"${input.status ? '' : html` aria-current="page"`}>All</a></li>
${(Object.keys(FILTER_LABELS) as InvoiceFilter[]).map(
  (s) =>
    html`<li><a href="${ws}/invoices?status=${s}"${
      input.status === s ? html` aria-current="page"` : ''
    }>${FILTER_LABELS[s]}</a></li>`,
)}
</ul></nav>
<section class="card table-card" aria-labelledby="invoices-heading">
<h2 id="invoices-heading" class="offscreen">Invoices</h2>
${
  input.invoices.length === 0
    ? html`<p class="empty">${input.status ? 'No invoices with this status.' : 'No invoices yet.'}</p>`
    : invoicesTable(call, input.invoices, input.locale)
}
</section>
${cursorPager({ base, param: 'after', cursor: input.cursor, next: input.next })}`;
}

const quoteLabel = (q: QuoteChain['quote']) =>
  q.number ? `${q.number}${q.revision > 1 ? ` rev ${q.revision}` : ''}` : 'Draft quote';

/**
 * A quote's chain of documents, each linked (docs/invoices.md, "Kinds and the chain"): `Q-0007 accepted →
 * INV-0003 deposit, paid → INV-0005, due 12 Dec`. `current` is the page's own document, shown unlinked.
 */
export function chainList(
  call: WorkspaceCall,
  chain: QuoteChain,
  locale: string,
  currency: string,
  current?: string,
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const money = (minor: number) => formatMoney(minor, currency, locale);
  return html`<ol class="chain" id="invoice-chain">
<li>${
    current === chain.quote.id
      ? quoteLabel(chain.quote)
      : html`<a href="${ws}/quotes/${chain.quote.id}">${quoteLabel(chain.quote)}</a>`
  } <span class="muted small">${chain.quote.status} · ${money(chain.quote.total)}</span></li>
${chain.documents.map(
  (d) =>
    html`<li>${
      current === d.id
        ? html`<strong>${invoiceName(d)}</strong>`
        : html`<a href="${ws}/invoices/${d.id}">${invoiceName(d)}</a>`
    } <span class="muted small">${KIND_LABELS[d.kind]}</span> ${invoiceBadge(d)}
    <span class="muted small">${money(d.total)}${
      d.kind !== 'credit_note' && d.status !== 'draft' && d.status !== 'void' ? ` · balance ${money(d.balance)}` : ''
    }${
      d.dueDate && d.status !== 'paid' && d.status !== 'void' ? ` · due ${formatDay(d.dueDate, locale)}` : ''
    }</span></li>`,
)}
</ol>`;
}

/** What an invoice's page shows besides the invoice: a refusal's messages and what was typed. */
export interface InvoiceForm {
  body?: Record<string, string>;
  errors?: FormErrors;
  problem?: string;
  /** Which form the refusal is of: its fields keep what was typed. */
  form?: 'draft' | 'payment' | 'void' | 'credit';
}

export interface InvoicePageInput {
  invoice: InvoiceView;
  leadName: string | null;
  /** The invoice's quote's chain (absent for a blank invoice). */
  chain?: QuoteChain;
  document?: StoredDocument;
  emailOn: boolean;
  today: string;
  form: InvoiceForm;
}

const fieldError = (errors: FormErrors, name: string, id = `f-${name}`) =>
  errors[name] ? html`<p class="field-error" id="${id}-error">${errors[name]}</p>` : '';

function lineBlock(input: InvoicePageInput, line: InvoiceLineView, position: number): SafeHtml {
  const { invoice, form } = input;
  const errors = form.form === 'draft' ? (form.errors ?? {}) : {};
  const p = `line-${line.id}`;
  const posted = form.form === 'draft' ? form.body : undefined;
  const value = (name: string, fallback: string) => (posted ? (posted[`${p}-${name}`] ?? '') : fallback);
  const ticked = (i: number, fallback: boolean) => (posted ? posted[`${p}-tax${i + 1}`] === 'on' : fallback);
  const unit = value('unit', line.unit);
  const text = (name: string, label: string, v: string, maxlength: number, textarea = false) => {
    const id = `f-${p}-${name}`;
    const error = errors[`${p}-${name}`];
    const invalid = error ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
    return html`<div class="field ${name}-cell"><label for="${id}">${label}</label>${
      textarea
        ? html`<textarea id="${id}" name="${p}-${name}" rows="2" maxlength="${maxlength}"${invalid}>${v}</textarea>`
        : html`<input type="text" id="${id}" name="${p}-${name}" value="${v}" maxlength="${maxlength}"
          inputmode="decimal"${invalid}>`
    }${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</div>`;
  };
  return html`<fieldset class="quote-line" id="${p}"><legend class="offscreen">Line ${position + 1}</legend>
${text('description', `Line ${position + 1}`, value('description', line.description), 1000, true)}
<div class="line-grid">
${text('quantity', 'Quantity', value('quantity', formatDecimal(line.quantity, 2)), 14)}
<div class="field"><label for="f-${p}-unit">Unit</label><select id="f-${p}-unit" name="${p}-unit">${UNITS.map(
    (u) => html`<option value="${u}"${u === unit ? html` selected` : ''}>${UNIT_LABELS[u]}</option>`,
  )}</select></div>
${text('price', `Unit price (${invoice.currency})`, value('price', amountText(line.unitPrice, invoice.currency)), 20)}
<div class="field taxes-cell"><span class="muted small">Taxes</span><div>${
    invoice.taxRates.length === 0
      ? html`<span class="muted small">none</span>`
      : invoice.taxRates.map(
          (t, i) =>
            html`<label class="radio"><input type="checkbox" name="${p}-tax${i + 1}" value="on"${
              ticked(i, line.taxes.includes(t.name)) ? html` checked` : ''
            }> ${t.name}</label>`,
        )
  }${errors[`${p}-taxes`] ? html`<p class="field-error">${errors[`${p}-taxes`]}</p>` : ''}</div></div>
</div>
<input type="hidden" name="${p}-present" value="1">
<div class="line-foot"><span class="muted small">${line.subtractsInvoiceId ? 'Already invoiced' : ''}</span>
<span class="actions"><span class="line-amount">${formatMoney(line.amount, invoice.currency, invoice.locale)}</span>
<button type="submit" class="danger" name="do"
  value="remove:${line.id}" aria-label="Remove line ${position + 1}">Remove</button></span></div>
</fieldset>`;
}

function totalsList(invoice: InvoiceView): SafeHtml {
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  const issued = invoice.status !== 'draft' && invoice.kind !== 'credit_note';
  return html`<dl class="totals" id="invoice-totals">
<dt>Subtotal</dt><dd id="invoice-subtotal">${money(invoice.subtotal)}</dd>
${invoice.taxes.map((t) => html`<dt>${t.name} (${rateText(t.rate)} %)</dt><dd>${money(t.amount)}</dd>`)}
<dt class="grand">Total</dt><dd class="grand" id="invoice-total">${money(invoice.total)}</dd>
${issued ? html`<dt>Paid</dt><dd id="invoice-paid">${money(invoice.paid)}</dd>` : ''}
${issued && invoice.credited ? html`<dt>Credited</dt><dd id="invoice-credited">${money(invoice.credited)}</dd>` : ''}
${
  issued
    ? html`<dt class="grand">${
        invoice.owedBack > 0 ? 'Owed back to the customer' : 'Balance due'
      }</dt><dd class="grand" id="invoice-balance">${money(
        invoice.owedBack > 0 ? invoice.owedBack : invoice.balance,
      )}</dd>`
    : ''
}
</dl>`;
}

function newLine(input: InvoicePageInput, errors: FormErrors): SafeHtml {
  const { invoice, form } = input;
  const posted = form.form === 'draft' ? form.body : undefined;
  const v = (name: string, fallback: string) => (posted ? (posted[name] ?? '') : fallback);
  const ticked = (i: number) => (posted ? posted[`new-tax${i + 1}`] === 'on' : true);
  return html`<fieldset class="quote-line" id="new-line"><legend>A new line (a negative price is a discount)</legend>
<div class="field"><label for="f-new-description">Description</label><textarea id="f-new-description"
  name="new-description" rows="2" maxlength="1000"${
    errors['new-description'] ? html` aria-invalid="true" aria-describedby="f-new-description-error"` : ''
  }>${v('new-description', '')}</textarea>${fieldError(errors, 'new-description')}</div>
<div class="line-grid">
<div class="field"><label for="f-new-quantity">Quantity</label><input type="text" inputmode="decimal"
  id="f-new-quantity" name="new-quantity" value="${v('new-quantity', '1')}" maxlength="14">${fieldError(
    errors,
    'new-quantity',
  )}</div>
<div class="field"><label for="f-new-unit">Unit</label><select id="f-new-unit" name="new-unit">${UNITS.map(
    (u) => html`<option value="${u}"${u === v('new-unit', 'each') ? html` selected` : ''}>${UNIT_LABELS[u]}</option>`,
  )}</select></div>
<div class="field"><label for="f-new-price">Unit price (${invoice.currency})</label><input type="text"
  inputmode="decimal" id="f-new-price" name="new-price" value="${v('new-price', '')}" maxlength="20">${fieldError(
    errors,
    'new-price',
  )}</div>
<div class="field taxes-cell"><span class="muted small">Taxes</span><div>${
    invoice.taxRates.length === 0
      ? html`<span class="muted small">none</span>`
      : invoice.taxRates.map(
          (t, i) =>
            html`<label class="radio"><input type="checkbox" name="new-tax${i + 1}" value="on"${
              ticked(i) ? html` checked` : ''
            }> ${t.name}</label>`,
        )
  }</div></div>
</div>
<input type="hidden" name="new-taxes-shown" value="1">
<div class="line-foot"><span class="muted small">Typed here, Save or Add line adds
it.</span><span class="actions"><button type="submit" class="secondary" name="do"
  value="add-line">Add line</button></span></div>
</fieldset>`;
}

function draftEditor(call: WorkspaceCall, input: InvoicePageInput, base: string): SafeHtml {
  const { invoice, form } = input;
  const errors = form.form === 'draft' ? (form.errors ?? {}) : {};
  const posted = form.form === 'draft' ? form.body : undefined;
  const v = (name: string, fallback: string | null) => (posted ? (posted[name] ?? '') : (fallback ?? ''));
  const credit = invoice.kind === 'credit_note';
  return html`<form method="post" action="${base}" novalidate id="invoice-editor">
${csrfField(call.csrf)}
<section class="card" aria-labelledby="lines-heading">
<h2 id="lines-heading">Lines</h2>
${
  invoice.lines.length === 0
    ? html`<p class="muted small">No lines yet: add one below.</p>`
    : invoice.lines.map((line, i) => lineBlock(input, line, i))
}
${fieldError(errors, 'lines')}
${credit ? '' : newLine(input, errors)}
${totalsList(invoice)}
</section>
<section class="card" aria-labelledby="details-heading">
<h2 id="details-heading">Details</h2>
${field({ name: 'title', label: 'Title', value: v('title', invoice.title), errors, maxlength: 200 })}
<div class="grid-2">
<div>${field({
    name: 'customerName',
    label: 'Customer name',
    value: v('customerName', invoice.customer.name),
    errors,
    maxlength: 200,
  })}
${field({
  name: 'customerEmail',
  label: 'Customer email',
  type: 'email',
  value: v('customerEmail', invoice.customer.email),
  errors,
  maxlength: 254,
  hint: input.emailOn ? 'Send emails the invoice here, with its PDF.' : undefined,
})}
${field({
  name: 'customerPhone',
  label: 'Customer phone',
  type: 'tel',
  value: v('customerPhone', invoice.customer.phone),
  errors,
  maxlength: 40,
})}</div>
<div>${field({
    name: 'customerAddress',
    label: 'Customer address',
    value: v('customerAddress', invoice.customer.address),
    errors,
    maxlength: 500,
    textarea: true,
  })}
${
  credit
    ? ''
    : field({
        name: 'paymentTermsDays',
        label: 'Payment terms (days)',
        value: v('paymentTermsDays', String(invoice.paymentTermsDays)),
        errors,
        maxlength: 3,
        hint: 'The due date is the day it is sent plus these days.',
      })
}</div>
</div>
${field({
  name: 'note',
  label: 'Note to the customer',
  value: v('note', invoice.note),
  errors,
  maxlength: 5000,
  textarea: true,
})}
</section>
<div class="card" id="invoice-actions">
${
  input.emailOn
    ? field({
        name: 'sendMessage',
        label: 'Your message in the email (optional)',
        value: v('sendMessage', invoice.sendMessage),
        errors,
        maxlength: 2000,
        textarea: true,
        hint:
          'Goes in the email that Send makes, above the total and the button to the invoice, with your business’s ' +
          'address and phone under it. Save keeps it with the draft.',
      })
    : ''
}
<div class="actions">
<button type="submit" class="secondary" name="do" value="save">Save</button>
<button type="submit" formaction="${base}/send" id="send-invoice">Send to the customer</button>
<span class="muted small">${fieldError(errors, 'send')}${
    input.emailOn
      ? invoice.customer.email
        ? `Send saves, numbers the ${
            credit ? 'credit note' : 'invoice'
          } and emails it with its PDF to ${invoice.customer.email}.`
        : 'No customer email: Send saves, numbers it and gives you the link to pass on.'
      : 'Email is off: Send saves, numbers it and gives you the customer’s link to copy.'
  } A sent ${credit ? 'credit note' : 'invoice'} is never changed.</span>
</div>
</div>
</form>`;
}

function readOnlyLines(invoice: InvoiceView): SafeHtml {
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  return html`<section class="card table-card" aria-labelledby="lines-heading">
<h2 id="lines-heading">Lines</h2>
<table class="list read-only-lines" id="invoice-lines">
<thead><tr><th scope="col">Description</th><th scope="col" class="amount">Quantity</th>
<th scope="col" class="amount">Unit price</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>${invoice.lines.map(
    (line) => html`<tr><td><span class="pre">${line.description}</span>${
      line.taxes.length ? html`<span class="muted small"> · ${line.taxes.join(', ')}</span>` : ''
    }${line.subtractsInvoiceId ? html` <span class="status">Already invoiced</span>` : ''}</td>
<td class="amount">${formatQuantity(
      line.quantity,
      invoice.locale,
    )} ${unitLabel(line.unit)}</td><td class="amount">${money(line.unitPrice)}</td>
    <td class="amount">${money(line.amount)}</td></tr>`,
  )}</tbody>
</table>
<div class="card" style="border:0;box-shadow:none;margin:0">${totalsList(invoice)}</div>
</section>`;
}

function paymentsCard(call: WorkspaceCall, input: InvoicePageInput, base: string): SafeHtml {
  const { invoice } = input;
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  const payable = ['sent', 'viewed', 'partly_paid'].includes(invoice.status);
  const errors = input.form.form === 'payment' ? (input.form.errors ?? {}) : {};
  const posted = input.form.form === 'payment' ? input.form.body : undefined;
  const v = (name: string, fallback: string) => (posted ? (posted[name] ?? '') : fallback);
  return html`<section class="card" aria-labelledby="payments-heading" id="payments">
<h2 id="payments-heading">Payments</h2>
${
  invoice.payments.length === 0
    ? html`<p class="muted small">No payment recorded yet.</p>`
    : html`<table class="list payments" id="payments-list"><thead><tr><th scope="col">Date</th>
    <th scope="col">Method</th><th scope="col">Reference</th><th scope="col" class="amount">Amount</th><th scope="col">
    <span class="offscreen">Actions</span></th></tr></thead>
<tbody>${invoice.payments.map(
        (p) => html`<tr><td data-label="Date">${day(p.date, invoice.locale)}</td>
<td data-label="Method">${METHOD_LABELS[p.method]}</td><td data-label="Reference">${p.reference ?? '—'}</td>
<td data-label="Amount" class="amount">${money(p.amount)}</td>
<td class="actions">${actionButton({
          action: `${base}/payments/${p.id}/delete`,
          csrf: call.csrf,
          label: 'Delete',
          kind: 'danger',
          confirm: `Delete the payment of ${money(p.amount)} of ${p.date}? The balance is computed again.`,
        })}</td></tr>`,
      )}</tbody></table>`
}
${
  payable
    ? html`<form method="post" action="${base}/payments" novalidate id="record-payment">
${csrfField(call.csrf)}
<h3>Record payment</h3>
<div class="grid-2">
<div>${field({
        name: 'amount',
        label: `Amount (${invoice.currency})`,
        value: v('amount', amountText(invoice.balance, invoice.currency)),
        errors,
        maxlength: 20,
        hint: `At most the balance, ${money(invoice.balance)}.`,
      })}
${field({ name: 'date', label: 'Date paid', type: 'date', value: v('date', input.today), errors })}</div>
<div>${selectField(
        'method',
        'Method',
        PAYMENT_METHODS.map((m): [string, string] => [m, METHOD_LABELS[m]]),
        v('method', 'bank_transfer'),
        errors,
      )}
${field({ name: 'reference', label: 'Reference (optional)', value: v('reference', ''), errors, maxlength: 200 })}</div>
</div>
${
  input.emailOn && invoice.customer.email
    ? html`<div class="field"><label><input type="checkbox" name="receipt" value="on"${
        (posted ? posted.receipt === 'on' : true) ? html` checked` : ''
      }> Email the customer a receipt</label></div>`
    : ''
}
<button type="submit" id="record-payment-button">Record payment</button>
</form>`
    : errors.amount
      ? html`<p class="field-error" id="f-amount-error">${errors.amount}</p>`
      : ''
}
</section>`;
}

function voidCard(call: WorkspaceCall, input: InvoicePageInput, base: string): SafeHtml | string {
  const { invoice } = input;
  if (invoice.status === 'void') return '';
  const errors = input.form.form === 'void' ? (input.form.errors ?? {}) : {};
  const posted = input.form.form === 'void' ? input.form.body : undefined;
  const withPayments = invoice.payments.length > 0;
  return html`<section class="card" aria-labelledby="void-heading" id="void">
<h2 id="void-heading">Void</h2>
<p class="muted small">${
    withPayments
      ? 'An invoice with payments is not voided: correct it with a credit note, or delete a payment recorded by ' +
        'mistake first.'
      : 'A void invoice keeps its number; its link says it is void, with the reason.'
  }</p>
<form method="post" action="${base}/void" novalidate data-confirm="Void this? It cannot be undone.">
${csrfField(call.csrf)}
${field({
  name: 'reason',
  label: 'Reason',
  value: posted?.reason ?? '',
  errors,
  maxlength: 500,
  textarea: true,
  hint: 'Shown on its link and in the books.',
})}
<button type="submit" class="danger" id="void-invoice">Void</button>
</form>
</section>`;
}

function creditCard(call: WorkspaceCall, input: InvoicePageInput, base: string): SafeHtml | string {
  const { invoice } = input;
  if (invoice.kind === 'credit_note' || invoice.payments.length === 0 || invoice.status === 'void') return '';
  const errors = input.form.form === 'credit' ? (input.form.errors ?? {}) : {};
  const posted = input.form.form === 'credit' ? input.form.body : undefined;
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  return html`<section class="card" aria-labelledby="credit-heading" id="credit">
<h2 id="credit-heading">Credit note</h2>
<p class="muted small">A draft credit note for the lines ticked (none ticked: every line not credited yet). Sent, it
reduces the balance; beyond what is unpaid, it is owed back to the customer.</p>
<form method="post" action="${base}/credit" novalidate>
${csrfField(call.csrf)}
<fieldset class="field pick-items"><legend>Lines</legend>${invoice.lines.map(
    (l) =>
      html`<label><input type="checkbox"
        name="line" value="${l.id}"> <span class="pre">${l.description}</span> <span
          class="muted small">${money(l.amount)}</span></label>`,
  )}${fieldError(errors, 'lines')}</fieldset>
${field({
  name: 'reason',
  label: 'Reason',
  value: posted?.reason ?? '',
  errors,
  maxlength: 1000,
  textarea: true,
  hint: 'Printed on the credit note.',
})}
<button type="submit" class="secondary" id="make-credit">Make a credit note</button>
</form>
</section>`;
}

const kilobytes = (size: number | null) => `${Math.max(1, Math.round((size ?? 0) / 1024))} KB`;

function pdfCard(call: WorkspaceCall, input: InvoicePageInput, base: string): SafeHtml | string {
  const doc = input.document;
  if (!doc) return '';
  const line =
    doc.state === 'done'
      ? html`<li><a href="${base}/pdf"
        id="invoice-pdf-link">${doc.fileName}</a> <span class="muted small">${kilobytes(doc.size)} ·
        SHA-256 <code>${doc.sha256 ?? ''}</code></span></li>`
      : doc.state === 'failed'
        ? html`<li class="pdf-failed">
        <strong>The PDF could not be made.</strong> <span class="small">${doc.error ?? ''}</span>
${actionButton({ action: `${base}/pdf/retry`, csrf: call.csrf, label: 'Make PDF again', kind: 'secondary' })}</li>`
        : html`<li><span class="muted">Being made${
            doc.error ? html` (the last try failed: ${doc.error}; trying again)` : ''
          }…</span></li>`;
  return html`<section class="card" aria-labelledby="pdf-heading" id="pdf"><h2 id="pdf-heading">PDF</h2>
<p class="muted small">Made once when it was sent, and kept as it was: what the customer received.</p>
<ul class="plain">${line}</ul></section>`;
}

function factsCard(input: InvoicePageInput): SafeHtml {
  const { invoice } = input;
  const l = invoice.locale;
  return html`<div class="grid-2">
<section class="card" aria-labelledby="customer-heading"><h2 id="customer-heading">Customer</h2>
<dl class="facts">
<dt>Name</dt><dd>${invoice.customer.name ?? '—'}</dd>
<dt>Email</dt><dd>${invoice.customer.email ?? '—'}</dd>
<dt>Phone</dt><dd>${invoice.customer.phone ?? '—'}</dd>
<dt>Address</dt><dd class="pre">${invoice.customer.address ?? '—'}</dd>
</dl></section>
<section class="card" aria-labelledby="dates-heading"><h2 id="dates-heading">Dates</h2>
<dl class="facts">
<dt>Issued</dt><dd>${day(invoice.issueDate, l)}</dd>
${invoice.kind === 'credit_note' ? '' : html`<dt>Due</dt><dd>${day(invoice.dueDate, l)}</dd>`}
<dt>Sent</dt><dd>${when(invoice.sentAt, '—')}</dd>
<dt>Viewed</dt><dd>${
    invoice.viewedAt
      ? html`${when(invoice.viewedAt)} (${invoice.viewCount} ${invoice.viewCount === 1 ? 'view' : 'views'})`
      : 'not yet'
  }</dd>
${
  invoice.voidedAt
    ? html`<dt>Void</dt><dd>${when(invoice.voidedAt)}${
        invoice.voidReason ? html`: <span class="pre">${invoice.voidReason}</span>` : ''
      }</dd>`
    : ''
}
${invoice.creditReason ? html`<dt>Reason</dt><dd class="pre">${invoice.creditReason}</dd>` : ''}
</dl></section>
</div>
${
  invoice.title || invoice.note || invoice.paymentInstructions
    ? html`<section class="card"><h2>Title, note and payment instructions</h2><dl class="facts">
    <dt>Title</dt><dd>${invoice.title ?? '—'}</dd><dt>Note</dt><dd class="pre">${invoice.note ?? '—'}</dd>
    <dt>Payment instructions</dt><dd class="pre">${invoice.paymentInstructions ?? '—'}</dd></dl></section>`
    : ''
}`;
}

function creditsCard(call: WorkspaceCall, invoice: InvoiceView): SafeHtml | string {
  const ws = workspacePath(call.workspace.workspaceId);
  if (invoice.creditOf)
    return html`<p class="small" id="credit-of">Credits <a href="${ws}/invoices/${invoice.creditOf.id}">${
      invoice.creditOf.number ?? 'a draft invoice'
    }</a></p>`;
  if (invoice.credits.length === 0) return '';
  return html`<section class="card" aria-labelledby="credits-heading" id="credits">
  <h2 id="credits-heading">Credit notes</h2>
<ul class="plain">${invoice.credits.map(
    (c) =>
      html`<li><a href="${ws}/invoices/${c.id}">${c.number ?? 'Draft credit note'}</a> ${invoiceBadge({
        status: c.status,
        overdue: false,
      })} <span class="muted small">${formatMoney(c.total, invoice.currency, invoice.locale)}</span></li>`,
  )}</ul></section>`;
}

/** An invoice's page: a draft's editor and Send, or a sent one with its payments, Void, Credit note, the PDF. */
export function invoicePage(call: WorkspaceCall, input: InvoicePageInput): SafeHtml {
  const { invoice } = input;
  const ws = workspacePath(call.workspace.workspaceId);
  const base = `${ws}/invoices/${invoice.id}`;
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  const draft = invoice.status === 'draft';
  return html`<p class="small">${
    invoice.leadId ? html`<a href="${ws}/leads/${invoice.leadId}">← ${input.leadName ?? 'Lead'}</a> · ` : ''
  }<a href="${ws}/invoices">Invoices</a></p>
<div class="page-head"><div><h1>${invoiceName(invoice)}${
    invoice.title ? html` <span class="muted">· ${invoice.title}</span>` : ''
  }</h1><p class="muted small">${KIND_LABELS[invoice.kind]} · ${invoiceBadge(invoice)} · ${
    invoice.customer.name ?? 'No customer name'
  } · total <strong>${money(invoice.total)}</strong>${
    !draft && invoice.kind !== 'credit_note'
      ? html` · balance <strong id="head-balance">${money(invoice.balance)}</strong>`
      : ''
  }</p></div>
<div class="actions">${
    input.document?.state === 'done'
      ? html`<a class="button secondary" href="${base}/pdf" id="invoice-pdf">PDF</a>`
      : ''
  }</div></div>
${invoiceNotice(call.query.notice)}
${input.form.problem ? html`<p class="notice error" role="alert">${input.form.problem}</p>` : ''}
${creditsCard(call, invoice)}
${
  input.chain
    ? html`<section class="card" aria-labelledby="chain-heading" id="chain">
    <h2 id="chain-heading">The chain</h2>${chainList(
      call,
      input.chain,
      invoice.locale,
      invoice.currency,
      invoice.id,
    )}</section>`
    : ''
}
${
  invoice.customerUrl && !draft
    ? html`<section class="card" aria-labelledby="link-heading"><h2 id="link-heading">The customer’s link</h2>
<p class="muted small">Anyone with this link can read the ${
        invoice.kind === 'credit_note' ? 'credit note' : 'invoice'
      }; it is never listed anywhere.</p>
<div class="copy-row"><code class="copy-value" id="customer-link">${invoice.customerUrl}</code><button type="button"
  class="secondary" data-copy-target="#customer-link" data-status="#copy-status" hidden>Copy</button></div>
<p class="status-line" id="copy-status" role="status"></p></section>`
    : ''
}
${pdfCard(call, input, base)}
${
  draft
    ? draftEditor(call, input, base)
    : html`${readOnlyLines(invoice)}${
        invoice.kind === 'credit_note' ? '' : paymentsCard(call, input, base)
      }${creditCard(call, input, base)}${factsCard(input)}`
}
${voidCard(call, input, base)}`;
}
