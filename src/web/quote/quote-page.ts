import { formatDateTime, formatDay, zonedDay } from '../../domain/dates.js';
import type { CustomerQuote } from '../../domain/quotes/customer-quote.js';
import { takenAlternatives } from '../../domain/quotes/accept-quote.js';
import type { QuoteLineView, QuoteSectionView, QuoteView } from '../../domain/quotes/quote-view.js';
import { isFee, quantityText, shownNote } from '../../domain/line-text.js';
import { computeTotals, depositAmount, formatMoney, minorDigits, rateText } from '../../domain/money.js';
import { html, type SafeHtml } from '../html.js';
import { quoteAssetHref } from './quote-assets.js';
import type { QuoteInvoiceLink } from '../../domain/invoices/quote-invoice-links.js';
import { quoteInvoiceLinks } from '../invoice/invoice-links.js';
import type { QuotePlan } from './quote-plans.js';

/** What the customer typed, and the refusal next to each field, when an answer is shown again. */
export interface AnswerState {
  name?: string;
  agreed?: boolean;
  reason?: string;
  errors?: { name?: string; agreed?: string; reason?: string };
  /** A refusal of the whole answer (the quote was updated, answered, withdrawn, expired; too many tries). */
  refusal?: { heading: string; text: string };
  /** The ticks of the optional lines as posted. */
  chosen?: string[];
  /** The alternatives picked as posted (a section id per choice). */
  sections?: string[];
}

export interface QuotePageInput {
  customer: CustomerQuote;
  /** The form token bound to this link: the accept and decline forms carry it. */
  formToken: string;
  /** Whether the page's script reports the view: not for a signed-in member of the workspace. */
  beacon: boolean;
  answer?: AnswerState;
  /** The floor plan of each priced room (quote-plans.ts). */
  plans?: QuotePlan[];
  /**
   * Staff's **Preview as the customer** (docs/admin-app.md): the page as the customer sees it, marked as a preview at
   * the top with a way back, its answers switched off, its assets from the site's root (it is not under /q/).
   */
  preview?: { back: string; draft: boolean };
  /** The invoices made from an accepted quote, each with its customer's link (src/web/invoice/invoice-links.ts). */
  invoices?: readonly QuoteInvoiceLink[];
}

function shell(title: string, body: SafeHtml, attributes: SafeHtml | string = '', assets = ''): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="${assets}${quoteAssetHref('quote.css')}">
<script src="${assets}${quoteAssetHref('quote.js')}" defer></script>
</head>
<body${attributes}>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** The one answer for a link that leads nowhere: an unknown, malformed or erased quote's token alike. */
export function quoteNotFoundPage(): string {
  return shell(
    'Quote not found',
    html`<div class="sheet"><h1>Quote not found</h1>
    <p class="lead-text">This link leads to no quote. Please check that it was copied in full, or ask the business that
    sent it for a new link.</p></div>`,
  );
}

/** The PDF's address before its PDF is made: it says so and looks again by itself every few seconds. */
export function quotePreparingPage(): string {
  return shell(
    'Your PDF is being prepared',
    html`<div class="sheet"><h1>Your PDF is being prepared</h1>
    <p class="lead-text">It is usually ready within a few seconds. This page looks again by itself and the PDF downloads
    as soon as it is made.</p></div>`,
  ).replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta http-equiv="refresh" content="3">');
}

/** A plain message page (too many attempts, a problem on our side). */
export function quoteMessagePage(heading: string, text: string, requestId?: string): string {
  return shell(
    heading,
    html`<div class="sheet"><h1>${heading}</h1><p class="lead-text">${text}</p>${
      requestId ? html`<p class="muted small">Reference: ${requestId}</p>` : ''
    }</div>`,
  );
}

/** A calendar date (`2026-12-26`) in the workspace's locale: "December 26, 2026". */
/** An optional line's box on an open quote: ticked as the customer left it (or as sent), posted with Accept. */
function tickBox(lineId: string, chosen: boolean): SafeHtml {
  return html`<input type="checkbox" form="accept" name="line" value="${lineId}"${chosen ? html` checked` : ''}>`;
}

/** Its words: a question on screen, a plain "Optional" on paper. */
const OPTIONAL_WORDS = html`<span class="screen-only">Optional: include this</span><span
  class="print-only">Optional</span>`;

function dateText(day: string, locale: string): string {
  return formatDay(day, locale);
}

/** A moment in the workspace's zone and locale, with the zone named. */
function momentText(iso: string, locale: string, timeZone: string): string {
  return formatDateTime(iso, locale, timeZone);
}

function dayOf(iso: string, timeZone: string): string {
  return zonedDay(iso, timeZone);
}

/**
 * One line as the customer reads it (docs/quotes.md, "What the customer reads"): the description, how its quantity
 * was measured when the quote shows that, `14.32 m² × $35.00`, and a fee as its amount alone.
 */
function lineRow(line: QuoteLineView, input: QuotePageInput, quote: QuoteView, open: boolean): SafeHtml {
  const { locale } = input.customer;
  const money = (minor: number) => formatMoney(minor, quote.currency, locale);
  const chosen = line.chosen;
  const counted = !line.optional || chosen;
  const fee = isFee(line);
  const qty = quantityText(line, locale);
  const note = shownNote(line.source, quote.showMeasurements);
  const tick = line.optional
    ? open
      ? html`<label class="tick">${tickBox(line.id, chosen)} ${OPTIONAL_WORDS}</label>`
      : html`<span class="tick">${chosen ? 'Optional: included' : 'Optional: not included'}</span>`
    : '';
  return html`<tr class="${
    line.optional ? 'optional' : ''
  }${counted ? '' : ' unticked'}" data-amount="${String(line.amount)}" data-taxes="${line.taxes.join(',')}">
<td class="desc"><span class="pre">${line.description}</span>${
    note ? html`<span class="measured small muted">${note}</span>` : ''
  }${
    fee ? '' : html`<span class="line-qty">${qty} × ${money(line.unitPrice)}</span>`
  }${tick ? html`<br>${tick}` : ''}</td>
<td class="num col-qty">${qty}</td>
<td class="num col-price">${fee ? '' : money(line.unitPrice)}</td>
<td class="num amount">${money(line.amount)}</td>
</tr>`;
}

/**
 * The quote as the page shows it: the optional lines ticked and the alternatives picked as the customer posted them
 * (the **Update** button, a refused answer shown again), priced again by the one counting rule; as sent otherwise.
 */
export function shownQuote(quote: QuoteView, answer: AnswerState | undefined): QuoteView {
  if (!answer?.chosen && !answer?.sections) return quote;
  const lines = quote.lines.map((line) =>
    line.optional && answer.chosen ? { ...line, chosen: answer.chosen.includes(line.id) } : line,
  );
  const taken = takenAlternatives(quote.sections, answer.sections ?? []);
  const picked = quote.sections.map((section) =>
    section.choice !== null && taken.has(section.choice)
      ? { ...section, chosen: taken.get(section.choice) === section.id }
      : section,
  );
  const totals = computeTotals(lines, quote.taxes, picked);
  return {
    ...quote,
    lines,
    sections: picked.map((section, i) => ({ ...section, subtotal: totals.sections[i]!.subtotal })),
    subtotal: totals.subtotal,
    taxes: totals.taxes,
    total: totals.total,
    deposit: quote.deposit && { ...quote.deposit, amount: depositAmount(quote.deposit, totals.total)! },
  };
}

/** The quantity and unit-price cells a heading or subtotal row leaves empty (hidden on a phone, as the lines' are). */
const FILL = html`<td class="col-qty"></td><td class="col-price"></td>`;

/**
 * A section's lines with its heading and subtotal; an alternative with its radio (while open) or whether it was taken.
 */
function sectionBody(section: QuoteSectionView, input: QuotePageInput, quote: QuoteView, open: boolean): SafeHtml {
  const money = (minor: number) => formatMoney(minor, quote.currency, input.customer.locale);
  const lines = quote.lines.filter((line) => line.sectionId === section.id);
  const alternative = section.choice !== null;
  const title = section.title ?? (alternative ? 'Option' : '');
  const recommended = section.recommended ? html` <span class="badge">Recommended</span>` : '';
  const head = alternative
    ? open
      ? html`<tr class="section-head"><th scope="rowgroup" class="group-head">
      <label class="pick"><input type="radio" form="accept" name="alt-${section.choice!}" value="${section.id}"${
        section.chosen ? html` checked` : ''
      }> <span>${title}</span></label>${recommended}</th>${FILL}<td></td></tr>`
      : html`<tr class="section-head"><th scope="rowgroup"
        class="group-head">${title}${recommended} <span class="small muted">${
          section.chosen ? 'Chosen' : 'Not chosen'
        }</span></th>${FILL}<td></td></tr>`
    : section.title !== null
      ? html`<tr class="section-head"><th scope="rowgroup" class="group-head">${title}</th>${FILL}<td></td></tr>`
      : '';
  const subtotal =
    quote.sections.length > 1
      ? html`<tr class="section-subtotal"><td>Subtotal${
          title ? html` · ${title}` : ''
        }</td>${FILL}<td class="num" data-section-subtotal>${money(section.subtotal)}</td></tr>`
      : '';
  return html`<tbody data-section="${section.id}"${
    alternative ? html` data-choice="${section.choice!}" class="alternative${section.chosen ? '' : ' not-chosen'}"` : ''
  }>
${head}${lines.map((line) => lineRow(line, input, quote, open))}
${subtotal}</tbody>`;
}

/**
 * The lines by section, in order; the alternatives of one choice together where the first of them stands, under
 * "Choose one", with an **Update** button (while open) that shows the totals of the choice without the page's script.
 */
function sectionBodies(input: QuotePageInput, quote: QuoteView, open: boolean): SafeHtml[] {
  const done = new Set<string>();
  const bodies: SafeHtml[] = [];
  for (const section of quote.sections) {
    if (section.choice === null) {
      bodies.push(sectionBody(section, input, quote, open));
      continue;
    }
    if (done.has(section.choice)) continue;
    done.add(section.choice);
    const group = quote.sections.filter((s) => s.choice === section.choice);
    const names = group.map((s) => s.title ?? 'Option').join(' · ');
    bodies.push(
      html`<tbody class="choice-head"><tr><th scope="rowgroup" class="group-head">Choose one: ${names}${
        open
          ? html` <button type="submit" form="accept" name="update" value="1" class="secondary small-button"
            data-update>Update</button>`
          : ''
      }</th>${FILL}<td></td></tr></tbody>`,
    );
    for (const alternative of group) bodies.push(sectionBody(alternative, input, quote, open));
  }
  return bodies;
}

/**
 * The PDF's address from the page: the page's own path with `?pdf=` (a relative reference keeps the path), so the
 * link's token is never written into the page. `/q/{token}/pdf` and `/q/{token}/pdf/accepted` serve the same.
 */
function pdfHref(which: 'sent' | 'accepted', input: QuotePageInput): string {
  // The preview (staff, signed in) links the staff's own PDF addresses of the quote.
  if (input.preview) return `${input.preview.back}/pdf${which === 'accepted' ? '/accepted' : ''}`;
  return `?pdf=${which}`;
}

/** The notice at the top: what state the link is in, in plain words. */
function stateNotice(input: QuotePageInput): SafeHtml {
  const { quote, state, business, locale, timeZone } = input.customer;
  const at = (iso: string | null) => (iso ? momentText(iso, locale, timeZone) : '');
  switch (state) {
    case 'accepted':
      return html`<section class="notice ok" id="acceptance"><h2>Accepted</h2>
<p>Accepted by <strong>${quote.acceptedName ?? ''}</strong> on ${at(quote.acceptedAt)}.</p>
<p class="small">Fingerprint of the quote as accepted
(SHA-256):<br><span class="hash">${quote.acceptanceHash ?? ''}</span></p>
${
  input.customer.documents.accepted
    ? html`<p><a class="button" id="accepted-pdf" href="${pdfHref('accepted', input)}">Download the accepted copy
    (PDF)</a></p>`
    : ''
}</section>`;
    case 'declined':
      return html`<section class="notice bad" id="declined"><h2>Declined</h2>
      <p>This quote was declined on ${at(quote.declinedAt)}.${
        quote.declineReason ? html` Reason given: <span class="pre">${quote.declineReason}</span>` : ''
      }</p></section>`;
    case 'withdrawn':
      return html`<section class="notice warn" id="withdrawn"><h2>This quote was withdrawn</h2>
      <p>${business.name} withdrew this quote${
        quote.withdrawnAt ? html` on ${at(quote.withdrawnAt)}` : ''
      }, so it can no longer be accepted. Please contact them if you have questions.</p></section>`;
    case 'expired':
      return html`<section class="notice warn" id="expired"><h2>This quote has expired</h2>
      <p>It was valid until ${dateText(
        quote.validUntil,
        locale,
      )} and can no longer be accepted. Please ask ${business.name} for an updated quote.</p></section>`;
    case 'open':
      return input.customer.replacesEarlier
        ? html`<section class="notice info" id="updated"><h2>This quote was updated</h2>
        <p>This is revision ${String(quote.revision)}; it replaces the earlier version you may have seen.</p></section>`
        : html``;
  }
}

function acceptForm(input: QuotePageInput): SafeHtml {
  const { quote } = input.customer;
  const answer = input.answer ?? {};
  const errors = answer.errors ?? {};
  // In the preview the answers are shown as the customer sees them, switched off.
  const off = input.preview ? html` disabled` : '';
  return html`<section class="answer no-print" id="answer">
<h2>Accept this quote</h2>
<form method="post" id="accept" class="accept" novalidate>
<input type="hidden" name="do" value="accept">
<input type="hidden" name="formToken" value="${input.formToken}">
<input type="hidden" name="revision" value="${String(quote.revision)}">
<input type="hidden" name="linesShown" value="1">
<label class="field" for="q-name">Your full name</label>
<input type="text" id="q-name" name="name" autocomplete="name" maxlength="200" value="${answer.name ?? ''}"${off}${
    errors.name ? html` aria-invalid="true" aria-describedby="q-name-error"` : ''
  }>
${errors.name ? html`<p class="error" id="q-name-error">${errors.name}</p>` : ''}
<label class="agree"><input type="checkbox" name="agreed" value="yes"${off}${answer.agreed ? html` checked` : ''}${
    errors.agreed ? html` aria-invalid="true" aria-describedby="q-agreed-error"` : ''
  }> <span>I accept this quote and its terms</span></label>
${errors.agreed ? html`<p class="error" id="q-agreed-error">${errors.agreed}</p>` : ''}
<div class="buttons"><button type="submit" class="primary"${off}>Accept quote</button></div>
<p class="muted small keep-note">Your name, the time and a fingerprint of this quote as shown are kept as the record of
your acceptance.</p>
</form>
<details class="decline"${errors.reason || answer.reason ? html` open` : ''}><summary>Decline this quote</summary>
<form method="post" class="decline-form">
<input type="hidden" name="do" value="decline">
<input type="hidden" name="formToken" value="${input.formToken}">
<input type="hidden" name="revision" value="${String(quote.revision)}">
<label class="field" for="q-reason">Reason (optional)</label>
<textarea id="q-reason" name="reason" maxlength="2000"${off}${
    errors.reason ? html` aria-invalid="true" aria-describedby="q-reason-error"` : ''
  }>${answer.reason ?? ''}</textarea>
${errors.reason ? html`<p class="error" id="q-reason-error">${errors.reason}</p>` : ''}
<div class="buttons spaced"><button type="submit" class="secondary"${off}>Decline quote</button></div>
</form></details>
</section>`;
}

/** The customer's page: the quote as a document, its state in plain words, and (while open) Accept and Decline. */
export function quotePage(input: QuotePageInput): string {
  const { state, business, locale, timeZone } = input.customer;
  const quote = shownQuote(input.customer.quote, input.answer);
  const money = (minor: number) => formatMoney(minor, quote.currency, locale);
  // A draft (seen only in the preview) has no number until it is sent.
  const number = `${quote.number ?? 'Draft'}${quote.revision > 1 ? ` rev ${quote.revision}` : ''}`;
  const open = state === 'open';
  const refusal = input.answer?.refusal;
  const customer = quote.customer;
  const preview = input.preview;
  const body = html`${
    preview
      ? html`<section class="notice preview no-print" id="preview" role="note"><h2>Preview as the customer</h2>
<p>This is the page ${customer.name ?? 'your customer'} sees${
          preview.draft ? ' once you send the quote' : ''
        }. Nothing here is sent or recorded: this look is not counted as a view, and Accept and Decline are switched
        off.</p>
<p><a href="${preview.back}" id="preview-back">Back to the quote</a></p></section>`
      : ''
  }<div class="sheet">
${
  refusal
    ? html`<section class="notice bad" id="refusal" role="alert"><h2>${refusal.heading}</h2><p>${refusal.text}</p>
    </section>`
    : ''
}
${stateNotice(input)}
${quoteInvoiceLinks(input.invoices ?? [])}
<header class="head">
<div class="business">
<p class="name">${business.name}</p>
${business.address ? html`<p class="pre">${business.address}</p>` : ''}
${business.phone ? html`<p>${business.phone}</p>` : ''}
${business.email ? html`<p>${business.email}</p>` : ''}
${business.taxNumbers.map((t) => html`<p class="small muted">${t.name}: ${t.value}</p>`)}
</div>
<div class="meta">
<div class="kind">Quote</div>
<h1 class="number">${number}</h1>
<dl class="facts">
${quote.sentAt ? html`<dt>Date</dt><dd>${dateText(dayOf(quote.sentAt, timeZone), locale)}</dd>` : ''}
<dt>Valid until</dt><dd>${dateText(quote.validUntil, locale)}</dd>
</dl>
</div>
</header>
${
  customer.name || customer.address || customer.email || customer.phone
    ? html`<section class="for"><p class="small muted">Prepared for</p>
${customer.name ? html`<p class="strong">${customer.name}</p>` : ''}
${customer.address ? html`<p class="pre">${customer.address}</p>` : ''}
${customer.email ? html`<p>${customer.email}</p>` : ''}
${customer.phone ? html`<p>${customer.phone}</p>` : ''}</section>`
    : ''
}
${quote.title ? html`<h2 class="title">${quote.title}</h2>` : ''}
<table class="lines">
<thead><tr><th scope="col">Description</th><th scope="col" class="num col-qty">Quantity</th>
<th scope="col" class="num col-price">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
${sectionBodies(input, quote, open)}
</table>
<table class="totals" data-totals data-locale="${locale}" data-currency="${quote.currency}" data-digits="${String(
    minorDigits(quote.currency),
  )}">
<tr><td>Subtotal</td><td data-subtotal>${money(quote.subtotal)}</td></tr>
${quote.taxes.map(
  (t) =>
    html`<tr><td>${t.name} ${rateText(t.rate)} %</td><td data-tax="${t.name}"
      data-rate="${String(t.rate)}">${money(t.amount)}</td></tr>`,
)}
<tr class="total"><td>Total</td><td data-total>${money(quote.total)}</td></tr>
${
  quote.deposit
    ? html`<tr class="deposit"><td>Deposit due on acceptance</td><td data-deposit${
        quote.deposit.percent !== null
          ? html` data-percent="${String(quote.deposit.percent)}"`
          : html` data-fixed="${String(quote.deposit.fixed ?? 0)}"`
      }>${money(quote.deposit.amount)}</td></tr>`
    : ''
}
</table>
${
  input.plans && input.plans.length > 0
    ? html`<section class="plans"><h2>Floor plans</h2><div class="plan-grid">${input.plans.map(
        (p) => html`<figure class="plan"><figcaption>${p.name}</figcaption>${p.svg}</figure>`,
      )}</div></section>`
    : ''
}
${quote.note ? html`<h2>Note</h2><p class="pre">${quote.note}</p>` : ''}
${quote.terms ? html`<h2>Terms</h2><p class="pre">${quote.terms}</p>` : ''}
${open ? acceptForm(input) : ''}
</div>
<footer class="foot no-print">${
    preview && !input.customer.documents.sent
      ? html`<p class="muted small">Once the quote is sent, the customer can download its PDF here.</p>`
      : input.customer.documents.sent
        ? html`<p><a class="button secondary" id="download-pdf" href="${pdfHref('sent', input)}">Download PDF</a></p>
        <p class="muted small">The PDF is the quote as it was sent to you, to keep or forward.</p>`
        : html`<p class="muted small">To keep a copy, print this page or save it as a PDF from your browser's Print
        menu.</p>`
  }</footer>`;
  const attributes = html` data-form-token="${input.formToken}"${input.beacon ? html` data-view=""` : ''}`;
  const title = `Quote ${number} from ${business.name}`;
  return preview ? shell(`Preview: ${title}`, body, attributes, '/q/') : shell(title, body, attributes);
}
