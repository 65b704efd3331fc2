import { formatDay } from '../../domain/dates.js';
import type { CustomerInvoice } from '../../domain/invoices/customer-invoice.js';
import { isFee, quantityText } from '../../domain/line-text.js';
import { formatMoney, rateText } from '../../domain/money.js';
import { html, type SafeHtml } from '../html.js';
import { quoteAssetHref } from '../quote/quote-assets.js';

/** The customer's invoice page's input: the invoice as its link shows it, and the view beacon's form token. */
export interface InvoicePageInput {
  customer: CustomerInvoice;
  formToken: string;
  /** Whether the page's script reports the view: not for a signed-in member of the workspace. */
  beacon: boolean;
}

const KIND_WORDS = {
  invoice: 'Invoice',
  deposit: 'Deposit invoice',
  final: 'Invoice',
  credit_note: 'Credit note',
} as const;

const METHOD_WORDS: Record<string, string> = {
  bank_transfer: 'bank transfer',
  card: 'card',
  cash: 'cash',
  cheque: 'cheque',
  other: 'other',
};

/** The page's frame: the quote page's stylesheet and script (served under /i/assets/ too), never indexed. */
function shell(title: string, body: SafeHtml, attributes: SafeHtml | string = ''): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="${quoteAssetHref('quote.css')}">
<script src="${quoteAssetHref('quote.js')}" defer></script>
</head>
<body${attributes}>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** The one answer for a link that leads nowhere: unknown, malformed or a draft's token alike. */
export function invoiceNotFoundPage(): string {
  return shell(
    'Invoice not found',
    html`<div class="sheet"><h1>Invoice not found</h1>
    <p class="lead-text">This link leads to no invoice. Please check that it was copied in full, or ask the business
    that sent it for a new link.</p></div>`,
  );
}

/** A plain message page (the PDF being prepared, a problem on our side). */
export function invoiceMessagePage(heading: string, text: string, refresh = false): string {
  const page = shell(heading, html`<div class="sheet"><h1>${heading}</h1><p class="lead-text">${text}</p></div>`);
  return refresh
    ? page.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta http-equiv="refresh" content="3">')
    : page;
}

function stateNotice(input: InvoicePageInput): SafeHtml {
  const { invoice, state, business } = input.customer;
  const money = (minor: number) => formatMoney(minor, invoice.currency, invoice.locale);
  switch (state) {
    case 'void':
      return html`<section class="notice warn" id="void"><h2>This invoice is void</h2><p>${business.name} voided it${
        invoice.voidReason ? html`: <span class="pre">${invoice.voidReason}</span>` : ''
      }. Nothing is to be paid on it.</p></section>`;
    case 'paid':
      return invoice.owedBack > 0
        ? html`<section class="notice ok" id="paid-in-full"><h2>Paid</h2>
        <p>Thank you. ${business.name} owes you ${money(invoice.owedBack)} back.</p></section>`
        : html`<section class="notice ok" id="paid-in-full"><h2>Paid in full</h2>
        <p>Thank you: nothing is left to pay.</p></section>`;
    case 'credit_note':
      return html`<section class="notice info" id="credit-note"><h2>Credit note</h2><p>${
        invoice.creditOf?.number
          ? html`It reduces invoice ${invoice.creditOf.number} by ${money(invoice.total)}.`
          : html`A credit of ${money(invoice.total)}.`
      }${invoice.creditReason ? html` Reason: <span class="pre">${invoice.creditReason}</span>` : ''}</p></section>`;
    case 'open':
      return invoice.overdue
        ? html`<section class="notice bad" id="overdue"><h2>Overdue</h2><p>${money(invoice.balance)} was due on ${
            invoice.dueDate ? formatDay(invoice.dueDate, invoice.locale) : ''
          }.</p></section>`
        : html`<section class="notice info" id="due"><h2>${money(invoice.balance)} to pay</h2>${
            invoice.dueDate ? html`<p>Due ${formatDay(invoice.dueDate, invoice.locale)}.</p>` : ''
          }</section>`;
  }
}

/** The customer's invoice page (docs/invoices.md, "The customer's page"): phone-first, printable, read-only. */
export function invoicePage(input: InvoicePageInput): string {
  const { invoice, business, quote, pdfReady, state } = input.customer;
  const locale = invoice.locale;
  const money = (minor: number) => formatMoney(minor, invoice.currency, locale);
  const customer = invoice.customer;
  const number = invoice.number ?? '';
  const credit = invoice.kind === 'credit_note';
  const body = html`<div class="sheet">
${stateNotice(input)}
<header class="head">
<div class="business">
<p class="name">${business.name}</p>
${business.address ? html`<p class="pre">${business.address}</p>` : ''}
${business.phone ? html`<p>${business.phone}</p>` : ''}
${business.email ? html`<p>${business.email}</p>` : ''}
${business.taxNumbers.map((t) => html`<p class="small muted">${t.name}: ${t.value}</p>`)}
</div>
<div class="meta">
<div class="kind">${KIND_WORDS[invoice.kind]}</div>
<h1 class="number">${number}</h1>
<dl class="facts">
${invoice.issueDate ? html`<dt>Date</dt><dd>${formatDay(invoice.issueDate, locale)}</dd>` : ''}
${!credit && invoice.dueDate ? html`<dt>Due date</dt><dd>${formatDay(invoice.dueDate, locale)}</dd>` : ''}
${quote ? html`<dt>Quote</dt><dd>${quote}</dd>` : ''}
</dl>
</div>
</header>
${
  customer.name || customer.address || customer.email || customer.phone
    ? html`<section class="for"><p class="small muted">Bill to</p>
${customer.name ? html`<p class="strong">${customer.name}</p>` : ''}
${customer.address ? html`<p class="pre">${customer.address}</p>` : ''}
${customer.email ? html`<p>${customer.email}</p>` : ''}
${customer.phone ? html`<p>${customer.phone}</p>` : ''}</section>`
    : ''
}
${invoice.title ? html`<h2 class="title">${invoice.title}</h2>` : ''}
<table class="lines">
<thead><tr><th scope="col">Description</th><th scope="col" class="num col-qty">Quantity</th>
<th scope="col" class="num col-price">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${invoice.lines.map((line) => {
  const fee = isFee(line);
  const qty = quantityText(line, locale);
  return html`<tr><td class="desc"><span class="pre">${line.description}</span>${
    line.subtractsInvoiceId ? html`<span class="measured small muted">Already invoiced</span>` : ''
  }${fee ? '' : html`<span class="line-qty">${qty} × ${money(line.unitPrice)}</span>`}</td>
<td class="num col-qty">${qty}</td><td class="num col-price">${
    fee ? '' : money(line.unitPrice)
  }</td><td class="num amount">${money(line.amount)}</td></tr>`;
})}
</tbody>
</table>
<table class="totals" id="totals">
<tr><td>Subtotal</td><td>${money(invoice.subtotal)}</td></tr>
${invoice.taxes.map((t) => html`<tr><td>${t.name} ${rateText(t.rate)} %</td><td>${money(t.amount)}</td></tr>`)}
<tr class="total"><td>Total</td><td id="total">${money(invoice.total)}</td></tr>
${credit ? '' : html`<tr><td>Paid</td><td id="paid">${money(invoice.paid)}</td></tr>`}
${!credit && invoice.credited ? html`<tr><td>Credited</td><td id="credited">${money(invoice.credited)}</td></tr>` : ''}
${
  credit
    ? ''
    : html`<tr class="total"><td>${
        invoice.owedBack > 0 ? 'Owed back to you' : 'Balance due'
      }</td><td id="balance">${money(invoice.owedBack > 0 ? invoice.owedBack : invoice.balance)}</td></tr>`
}
</table>
${
  !credit && invoice.payments.length
    ? html`<h2>Payments received</h2><ul class="payments" id="payments">${invoice.payments.map(
        (p) =>
          html`<li>${formatDay(p.date, locale)}: ${money(p.amount)} by ${METHOD_WORDS[p.method] ?? p.method}${
            p.reference ? html` (${p.reference})` : ''
          }</li>`,
      )}</ul>`
    : ''
}
${invoice.note ? html`<h2>Note</h2><p class="pre">${invoice.note}</p>` : ''}
${
  !credit && state === 'open' && invoice.paymentInstructions
    ? html`<h2>How to pay</h2><p class="pre" id="payment-instructions">${invoice.paymentInstructions}</p>`
    : ''
}
</div>
<footer class="foot no-print">${
    pdfReady
      ? html`<p><a class="button secondary" id="download-pdf" href="?pdf=1">Download PDF</a></p>
      <p class="muted small">The PDF is the ${
        credit ? 'credit note' : 'invoice'
      } as it was sent to you, to keep or forward.</p>`
      : html`<p class="muted small">To keep a copy, print this page or save it as a PDF from your browser's Print
      menu.</p>`
  }</footer>`;
  const attributes = html` data-form-token="${input.formToken}"${input.beacon ? html` data-view=""` : ''}`;
  return shell(`${KIND_WORDS[invoice.kind]} ${number} from ${business.name}`, body, attributes);
}
