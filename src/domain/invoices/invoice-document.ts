import {
  documentFileName,
  documentLabel,
  documentTitle,
  type DocumentLine,
  type DocumentModel,
  type DocumentSection,
} from '../document-model.js';
import { formatMoney, formatQuantity, rateText } from '../money.js';
import { customerUnit } from '../line-text.js';
import { documentDate, type QuoteDocumentFrame } from '../quotes/quote-document.js';
import { KIND_NAMES } from './invoice-states.js';
import type { InvoiceLineView, InvoiceView } from './invoice-view.js';

/**
 * What an invoice's document names beside its own figures: the quote it came from, the invoice a credit note credits.
 */
export interface InvoiceDocumentLinks {
  /** `Q-0007 rev 2`, or null for a blank invoice. */
  quote: string | null;
  /** A credit note's invoice number (`INV-0003`). */
  creditOf: string | null;
}

/**
 * A sent invoice or credit note as a document (docs/documents.md, "For other documents"; docs/invoices.md, "The PDF"):
 * the business and the customer ("Bill to"), Date and Due date, the quote it came from, the lines (a final invoice's
 * subtractions of earlier invoices under "Already invoiced"), subtotal, each tax, total, paid and the balance due,
 * the note and the payment instructions; a credit note says which invoice it credits and why. Every figure is
 * formatted the way the customer's page writes it, in the locale frozen at the send.
 */
export function invoiceDocument(
  invoice: InvoiceView,
  frame: QuoteDocumentFrame,
  links: InvoiceDocumentLinks,
): DocumentModel {
  if (!invoice.number || !invoice.sentAt || !invoice.issueDate)
    throw new Error('A draft has no document: it is made when the invoice is sent');
  const locale = invoice.locale;
  const money = (minor: number) => formatMoney(minor, invoice.currency, locale);
  const heading = KIND_NAMES[invoice.kind];
  const credit = invoice.kind === 'credit_note';
  const line = (l: InvoiceLineView): DocumentLine => ({
    description: l.description,
    quantity: formatQuantity(l.quantity, locale),
    unit: customerUnit(l.unit),
    unitPrice: money(l.unitPrice),
    amount: money(l.amount),
    optional: false,
    chosen: true,
  });
  const work = invoice.lines.filter((l) => l.subtractsInvoiceId === null);
  const less = invoice.lines.filter((l) => l.subtractsInvoiceId !== null);
  const sections: DocumentSection[] = [
    { heading: null, choice: null, subtotal: null, lines: work.map(line) },
    ...(less.length > 0 ? [{ heading: 'Already invoiced', choice: null, subtotal: null, lines: less.map(line) }] : []),
  ];
  return {
    v: 1,
    kind: credit ? 'credit_note' : 'invoice',
    heading,
    number: invoice.number,
    revision: 1,
    footerLabel: documentLabel(invoice.number, 1),
    fileName: documentFileName(invoice.number, 1),
    meta: {
      title: documentTitle(heading, invoice.number, frame.business.name),
      author: frame.business.name,
      createdAt: invoice.sentAt,
    },
    paper: frame.paper,
    locale,
    business: frame.business,
    customer: { label: 'Bill to', ...invoice.customer },
    dates: [
      { label: 'Date', value: documentDate(invoice.issueDate, locale) },
      ...(invoice.dueDate && !credit ? [{ label: 'Due date', value: documentDate(invoice.dueDate, locale) }] : []),
      ...(links.creditOf ? [{ label: 'Credits', value: links.creditOf }] : []),
      ...(links.quote ? [{ label: 'Quote', value: links.quote }] : []),
    ],
    title: invoice.title,
    sections,
    totals: [
      { label: 'Subtotal', value: money(invoice.subtotal) },
      ...invoice.taxes.map((t) => ({ label: `${t.name} ${rateText(t.rate)} %`, value: money(t.amount) })),
      credit
        ? { label: 'Total credited', value: money(invoice.total), strong: true }
        : { label: 'Total', value: money(invoice.total), strong: true },
      ...(credit
        ? []
        : [
            { label: 'Paid', value: money(invoice.paid) },
            { label: 'Balance due', value: money(Math.max(invoice.balance, 0)), strong: true },
          ]),
    ],
    texts: [
      ...(credit && invoice.creditReason ? [{ heading: 'Reason', body: invoice.creditReason }] : []),
      ...(invoice.note ? [{ heading: 'Note', body: invoice.note }] : []),
      ...(!credit && invoice.paymentInstructions
        ? [{ heading: 'Payment instructions', body: invoice.paymentInstructions }]
        : []),
    ],
    plans: [],
    plansNote: null,
    acceptance: null,
  };
}
