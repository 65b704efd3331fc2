import type { QuoteInvoiceLink } from '../../domain/invoices/quote-invoice-links.js';
import { html, type SafeHtml } from '../html.js';

const KIND_WORDS = { invoice: 'Invoice', deposit: 'Deposit invoice', final: 'Invoice', credit_note: 'Credit note' };
const STATUS_WORDS: Record<string, string> = {
  sent: 'to pay',
  viewed: 'to pay',
  partly_paid: 'partly paid',
  paid: 'paid',
  void: 'void',
};

/** The customer's quote page's block of the invoices made from it, each linked to its own page. */
export function quoteInvoiceLinks(links: readonly QuoteInvoiceLink[]): SafeHtml | string {
  if (links.length === 0) return '';
  return html`<section class="notice info" id="invoices"><h2>Invoices</h2><ul>${links.map(
    (l) =>
      html`<li><a href="${l.url}">${KIND_WORDS[l.kind]} ${l.number}</a> <span class="muted small">${
        l.kind === 'credit_note' && l.status !== 'void' ? '' : (STATUS_WORDS[l.status] ?? '')
      }</span></li>`,
  )}</ul></section>`;
}
