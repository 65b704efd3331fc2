import { formatDateTime, formatDay, zonedDay } from '../dates.js';
import {
  documentFileName,
  documentLabel,
  documentTitle,
  type DocumentAcceptance,
  type DocumentBusiness,
  type DocumentLine,
  type DocumentModel,
  type DocumentSection,
  type Paper,
} from '../document-model.js';
import { formatMoney, formatQuantity, rateText } from '../money.js';
import { customerUnit, isFee, shownNote } from '../line-text.js';
import type { Units } from '../units.js';
import { documentPlans } from './document-plans.js';
import type { FrozenPlans } from './frozen-plans.js';
import type { QuoteView } from './quote-view.js';

/**
 * What a quote's document is framed by, read from Settings at its send and frozen with it (docs/documents.md,
 * "Frozen at send"): the business block and logo, the words' locale, the zone its times are shown in, the units of
 * its plans' labels and the paper.
 */
export interface QuoteDocumentFrame {
  business: DocumentBusiness;
  locale: string;
  timeZone: string;
  units: Units;
  paper: Paper;
}

/** A calendar date (`2026-12-26`) in the locale, as the customer's page writes it: "December 26, 2026". */
export function documentDate(day: string, locale: string): string {
  return formatDay(day, locale);
}

/** The calendar day of a moment in a zone (`YYYY-MM-DD`). */
function dayIn(iso: string, timeZone: string): string {
  return zonedDay(iso, timeZone);
}

/** A moment in a zone and locale with the zone named, as the customer's page writes it. */
export function documentMoment(iso: string, locale: string, timeZone: string): string {
  return formatDateTime(iso, locale, timeZone);
}

/** What an accepted copy's acceptance page says, from the accepted revision (the sent PDF's SHA-256 comes later). */
export function quoteAcceptance(
  quote: QuoteView,
  frame: Pick<QuoteDocumentFrame, 'locale' | 'timeZone'>,
): DocumentAcceptance {
  return {
    name: quote.acceptedName ?? '',
    at: quote.acceptedAt ? documentMoment(quote.acceptedAt, frame.locale, frame.timeZone) : '',
    atUtc: quote.acceptedAt ? documentMoment(quote.acceptedAt, frame.locale, 'UTC') : '',
    options: [
      ...quote.lines
        .filter((l) => l.optional)
        .map((l) => `${l.description.replace(/\s+/g, ' ').trim()}: ${l.chosen ? 'included' : 'not included'}`),
      // Each choice between alternatives, with the one taken.
      ...quote.sections
        .filter((s) => s.choice !== null && s.chosen)
        .map((s) => `Chosen of ${choiceName(quote, s.choice!)}: ${s.title ?? 'Untitled'}`),
    ],
    contentSha256: quote.acceptanceHash ?? '',
    sentPdfSha256: null,
  };
}

/**
 * A sent quote revision as a document (docs/documents.md, "The document model"): what the customer's page shows,
 * formatted the same way. With `accepted`, the accepted copy: the revision as accepted (the optional lines as the
 * customer ticked them) and its acceptance page.
 */
export function quoteDocument(
  quote: QuoteView,
  frame: QuoteDocumentFrame,
  plans: FrozenPlans | null,
  options: { accepted?: boolean } = {},
): DocumentModel {
  if (!quote.number || !quote.sentAt) throw new Error('A draft has no document: it is made when the quote is sent');
  const { locale } = frame;
  const money = (minor: number) => formatMoney(minor, quote.currency, locale);
  const label = documentLabel(quote.number, quote.revision);
  const drawn = documentPlans(plans);
  return {
    v: 1,
    kind: 'quote',
    heading: 'Quote',
    number: quote.number,
    revision: quote.revision,
    footerLabel: label,
    fileName: documentFileName(quote.number, quote.revision, options.accepted === true),
    meta: {
      title: documentTitle('Quote', label, frame.business.name),
      author: frame.business.name,
      createdAt: quote.sentAt,
    },
    paper: frame.paper,
    locale,
    business: frame.business,
    customer: { label: 'Prepared for', ...quote.customer },
    dates: [
      { label: 'Date', value: documentDate(dayIn(quote.sentAt, frame.timeZone), locale) },
      { label: 'Valid until', value: documentDate(quote.validUntil, locale) },
    ],
    title: quote.title,
    sections: documentSections(
      quote,
      (line) => ({
        // As the customer's page reads it: how it was measured under it when the quote shows that, a fee without
        // "1 ×" (docs/quotes.md, "What the customer reads").
        description: [line.description, shownNote(line.source, quote.showMeasurements)].filter(Boolean).join('\n'),
        quantity: isFee(line) ? '' : formatQuantity(line.quantity, locale),
        unit: isFee(line) ? '' : customerUnit(line.unit),
        unitPrice: isFee(line) ? '' : money(line.unitPrice),
        amount: money(line.amount),
        optional: line.optional,
        chosen: line.chosen,
      }),
      money,
    ),
    totals: [
      { label: 'Subtotal', value: money(quote.subtotal) },
      ...quote.taxes.map((t) => ({ label: `${t.name} ${rateText(t.rate)} %`, value: money(t.amount) })),
      { label: 'Total', value: money(quote.total), strong: true },
      ...(quote.deposit ? [{ label: 'Deposit due on acceptance', value: money(quote.deposit.amount) }] : []),
    ],
    texts: [
      ...(quote.note ? [{ heading: 'Note', body: quote.note }] : []),
      ...(quote.terms ? [{ heading: 'Terms', body: quote.terms }] : []),
    ],
    plans: drawn,
    plansNote:
      drawn.length === 0 ? null : frame.units === 'metric' ? 'Lengths in metres.' : 'Lengths in feet and inches.',
    acceptance: options.accepted ? quoteAcceptance(quote, frame) : null,
  };
}

/**
 * The quote's sections as the customer's page shows them (docs/quotes.md, "Sections and alternatives"): each heading
 * with its lines and subtotal, an alternative marked with its choice (named by its sections' headings), and a quote
 * with one section without a heading as the one flat list it always was.
 */
function documentSections(
  quote: QuoteView,
  line: (line: QuoteView['lines'][number]) => DocumentLine,
  money: (minor: number) => string,
): DocumentSection[] {
  const plain = quote.sections.length <= 1 && (quote.sections[0]?.title ?? null) === null;
  if (plain) return [{ heading: null, choice: null, subtotal: null, lines: quote.lines.map(line) }];
  return quote.sections.map((section) => ({
    heading: section.title,
    choice: section.choice
      ? { group: choiceName(quote, section.choice), recommended: section.recommended, chosen: section.chosen }
      : null,
    subtotal: { label: `Subtotal${section.title ? ` · ${section.title}` : ''}`, value: money(section.subtotal) },
    lines: quote.lines.filter((l) => l.sectionId === section.id).map(line),
  }));
}

/** A choice between alternatives named by its sections' headings: `Oak engineered · Laminate`. */
function choiceName(quote: QuoteView, key: string): string {
  return quote.sections
    .filter((s) => s.choice === key)
    .map((s) => s.title ?? 'Untitled')
    .join(' · ');
}
