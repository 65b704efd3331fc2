import { formatDay } from '../../../domain/dates.js';
import {
  formatMoney,
  formatQuantity,
  amountText,
  formatDecimal,
  minorDigits,
  depositText,
} from '../../../domain/money.js';
import type { PriceListItem } from '../../../domain/price-list/price-list-item.js';
import {
  KIND_OF_MEASURE,
  UNIT_LABELS,
  UNITS,
  type Measure,
  type MeasureKind,
  type Unit,
} from '../../../domain/price-list/price-list-item.js';
import type { Units } from '../../../domain/units.js';
import type { ScanRooms } from '../../../domain/quotes/lead-rooms.js';
import type { QuoteSummary } from '../../../domain/quotes/list-quotes.js';
import type { StoredDocument } from '../../../domain/documents/stored-document.js';
import type { QuoteLineView, QuoteStatus, QuoteView } from '../../../domain/quotes/quote-view.js';
import type { WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';

export const STATUS_LABELS: Record<QuoteStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  replaced: 'Replaced',
  expired: 'Expired',
};

/** The filter of the quotes waiting for an answer the follow-up days or more (docs/quotes.md, "Follow-ups"). */
const NEEDS_FOLLOW_UP = 'needs-follow-up';

/** The Quotes screen's filters, in the order the contract lists them. */
export const FILTERS = ['draft', 'sent', 'viewed', 'accepted', 'declined', 'expired'] as const;

const QUOTE_NOTICES: Record<string, string> = {
  'quote-created':
    'A draft quote was made from the rooms and items you picked. Nothing reaches the customer until you press Send.',
  'quote-saved': 'Saved. The totals are recalculated.',
  'lines-added': 'The lines were added.',
  'quote-sent-email': 'Sent. The quote is on its way to the customer by email; the link below is the one in it.',
  'quote-sent': 'Sent. Email is off on this server: copy the customer’s link below and send it to them.',
  'quote-withdrawn': 'The quote was withdrawn. Its link now says so.',
  'quote-revised': 'A new draft revision was made. The customer keeps seeing the sent one until you send this.',
  'quote-copied': 'A new draft was copied from the quote.',
  'pdf-retried': 'The PDF is being made again. This page shows when it is ready.',
  'pdf-pending': 'The PDF is still being made; it is usually ready within seconds. Try PDF again in a moment.',
};

export function quoteNotice(code: string | undefined): SafeHtml | string {
  const text = code ? QUOTE_NOTICES[code] : undefined;
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}

export function statusBadge(status: QuoteStatus): SafeHtml {
  return html`<span class="status ${status}">${STATUS_LABELS[status]}</span>`;
}

export function quoteName(q: { number: string | null; revision: number }): string {
  if (!q.number) return 'Draft quote';
  return q.revision > 1 ? `${q.number} rev ${q.revision}` : q.number;
}

const unitLabel = (unit: string) => UNIT_LABELS[unit as Unit] ?? unit;

/** The quotes of a lead or a scan, or the Quotes screen's rows. */
export function quotesTable(
  call: WorkspaceCall,
  quotes: QuoteSummary[],
  settings: WorkspaceSettings,
  id = 'quotes',
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<table class="list quotes wide-labels" id="${id}">
<thead><tr><th scope="col">Quote</th><th scope="col">Customer</th><th scope="col">Status</th>
<th scope="col" class="amount">Total</th><th scope="col">Created</th><th scope="col">Sent</th>
<th scope="col">Valid until</th></tr></thead>
<tbody>${quotes.map(
    (q) => html`<tr>
<td data-label="Quote"><a href="${ws}/quotes/${q.id}">${quoteName(q)}</a>${
      q.title ? html`<span class="muted small"> · ${q.title}</span>` : ''
    }</td>
<td data-label="Customer">${q.customerName ?? html`<span class="muted">—</span>`}</td>
<td data-label="Status">${statusBadge(q.status)}</td>
<td data-label="Total" class="amount">${formatMoney(q.total, q.currency, settings.locale)}</td>
<td data-label="Created" class="num">${when(q.createdAt)}</td>
<td data-label="Sent" class="num">${when(q.sentAt, '—')}</td>
<td data-label="Valid until" class="num"><time datetime="${q.validUntil}">${formatDay(
      q.validUntil,
      settings.locale,
    )}</time></td>
</tr>`,
  )}</tbody>
</table>`;
}

/** The Quotes screen's empty list, in words that fit its filter. */
function emptyText(status: string | undefined, settings: WorkspaceSettings): string {
  if (status === NEEDS_FOLLOW_UP)
    return settings.followUpDays === null
      ? 'Follow-ups are off: Settings → Follow-ups turns them on.'
      : `No quote needs a follow-up: none has waited ${settings.followUpDays} days or more for an answer.`;
  return status ? 'No quotes with this status.' : 'No quotes yet.';
}

export function quotesScreen(
  call: WorkspaceCall,
  input: { quotes: QuoteSummary[]; status: string | undefined; settings: WorkspaceSettings },
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<div class="page-head"><div><h1>Quotes</h1>
  <p class="muted">Newest first. Start a quote from a lead’s page (New quote).</p></div>
<div class="actions"><a class="button secondary" href="${ws}/quotes/report"
  id="report-link">Report</a><a class="button secondary" href="${ws}/settings/price-list">Price list</a></div></div>
<nav aria-label="Status"><ul class="status-filters">
<li><a href="${ws}/quotes"${input.status ? '' : html` aria-current="page"`}>All</a></li>
${FILTERS.map(
  (s) =>
    html`<li><a href="${ws}/quotes?status=${s}"${
      input.status === s ? html` aria-current="page"` : ''
    }>${STATUS_LABELS[s]}</a></li>`,
)}
<li><a href="${ws}/quotes?status=${NEEDS_FOLLOW_UP}"${
    input.status === NEEDS_FOLLOW_UP ? html` aria-current="page"` : ''
  }>Needs follow-up</a></li>
</ul></nav>
<section class="card table-card" aria-labelledby="quotes-heading">
<h2 id="quotes-heading" class="offscreen">Quotes</h2>
${
  input.quotes.length === 0
    ? html`<p class="empty">${emptyText(input.status, input.settings)}</p>`
    : quotesTable(call, input.quotes, input.settings)
}
</section>`;
}

/** What the builder's form shows: the quote, or what was typed when a save was refused. */
export interface BuilderForm {
  body?: Record<string, string>;
  errors?: FormErrors;
  /** A refusal that is not about one field (sent meanwhile, no lines). */
  problem?: string;
}

export interface BuilderInput {
  quote: QuoteView;
  settings: WorkspaceSettings;
  leadName: string;
  items: PriceListItem[];
  scans: ScanRooms[];
  emailOn: boolean;
  form: BuilderForm;
  /** Where the revision's PDFs stand (docs/documents.md): absent for a draft, or a revision sent before PDFs. */
  documents?: { sent?: StoredDocument; accepted?: StoredDocument };
  /** An accepted quote's Invoices block (src/web/admin/invoices/invoice-chain-blocks.ts). */
  invoices?: SafeHtml | string;
  /** The line a move just placed (`?moved=`): the builder marks it and says it was saved. */
  movedLine?: string;
}

/** The unit a room's figure is in, by its kind, in the workspace's units (a pack line's own unit is `each`). */
const FIGURE_UNITS: Record<MeasureKind, Record<Units, string>> = {
  area: { metric: 'm²', imperial: 'ft²' },
  length: { metric: 'm', imperial: 'ft' },
  volume: { metric: 'm³', imperial: 'ft³' },
  count: { metric: '', imperial: '' },
};

/**
 * How a measured line's quantity was measured, for the staff's view: its `source.note` ("Kitchen: walls (net) 32.78 m²
 * × 2 coats = 7 packs of 10 m²"). A line made before notes were kept says it from its source, the figure in the unit
 * of the figure (m², not the pack's "each").
 */
export function measuredNote(line: QuoteLineView, settings: Pick<WorkspaceSettings, 'locale' | 'units'>): string {
  const source = line.source;
  if (!source) return '';
  if (source.note) return source.note;
  const kind = KIND_OF_MEASURE[source.measure as Measure] ?? 'count';
  const figureUnit = source.pack === null ? unitLabel(line.unit) : FIGURE_UNITS[kind][settings.units];
  const figure = `${formatQuantity(Math.round(source.measured * 100), settings.locale)}${
    figureUnit ? ` ${figureUnit}` : ''
  }`;
  return `From the scan, room ${source.room}: ${figure} measured${source.waste ? ` + ${source.waste} % waste` : ''}${
    source.coats !== 1 ? ` × ${source.coats} coats` : ''
  }${source.pack !== null ? ` = ${formatQuantity(line.quantity, settings.locale)} packs` : ''}`;
}

/** Where a line sits, for its labels and buttons: its place among all lines, and whether it just moved there. */
interface LinePlace {
  position: number;
  count: number;
  moved: boolean;
}

/**
 * A draft's line: a compact table row at desktop width (the column names in `linesHead`, each field's own label kept
 * for screen readers), a card on a phone. The drag handle is hidden until the admin script shows it; the arrows work
 * without the script (docs/admin-app.md, "Quotes").
 */
function lineBlock(input: BuilderInput, line: QuoteLineView, place: LinePlace): SafeHtml {
  const { quote, form } = input;
  const { position, count } = place;
  const errors = form.errors ?? {};
  const p = `line-${line.id}`;
  const posted = form.body;
  const value = (name: string, fallback: string) => (posted ? (posted[`${p}-${name}`] ?? '') : fallback);
  const ticked = (name: string, fallback: boolean) => (posted ? posted[`${p}-${name}`] === 'on' : fallback);
  const unit = value('unit', line.unit);
  const err = (name: string) => errors[`${p}-${name}`];
  const input1 = (
    name: string,
    label: string,
    v: string,
    extra: { textarea?: boolean; maxlength: number; inputmode?: string },
  ) => {
    const id = `f-${p}-${name}`;
    const error = err(name);
    return html`<div class="field ${name}-cell"><label for="${id}">${label}</label>${
      extra.textarea
        ? html`<textarea id="${id}" name="${p}-${name}" rows="2" maxlength="${extra.maxlength}"${
            error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
          }>${v}</textarea>`
        : html`<input type="text" id="${id}" name="${p}-${name}" value="${v}" maxlength="${extra.maxlength}"${
            extra.inputmode ? html` inputmode="${extra.inputmode}"` : ''
          }${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>`
    }${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</div>`;
  };
  const source = line.source;
  // A moved line takes the focus from the URL's fragment (#line-…), so the arrow keys go on moving it (admin script).
  return html`<fieldset class="quote-line${place.moved ? ' moved' : ''}" id="${p}" data-line="${p}"${
    place.moved ? html` tabindex="-1"` : ''
  }>
  <legend class="offscreen">Line ${position + 1}</legend>
<span class="drag-cell"><button type="button" class="drag-handle secondary" data-drag hidden
  aria-label="Move line ${position + 1}: drag it, or press the up and down arrow keys">⠿</button></span>
${input1('description', `Line ${position + 1}`, value('description', line.description), {
  textarea: true,
  maxlength: 1000,
})}
${source ? html`<p class="source">${measuredNote(line, input.settings)}</p>` : ''}
${place.moved ? html`<p class="moved-note" role="status">Moved here and saved.</p>` : ''}
<div class="line-grid">
${input1('quantity', 'Quantity', value('quantity', formatDecimal(line.quantity, 2)), {
  maxlength: 14,
  inputmode: 'decimal',
})}
<div class="field unit-cell"><label for="f-${p}-unit">Unit</label><select id="f-${p}-unit"
  name="${p}-unit">${UNITS.map(
    (u) => html`<option value="${u}"${u === unit ? html` selected` : ''}>${UNIT_LABELS[u]}</option>`,
  )}</select>${err('unit') ? html`<p class="field-error">${err('unit')}</p>` : ''}</div>
${input1('price', `Unit price (${quote.currency})`, value('price', amountText(line.unitPrice, quote.currency)), {
  maxlength: 20,
  inputmode: 'decimal',
})}
<div class="field taxes-cell"><span class="muted small">Taxes</span><div>${
    quote.taxes.length === 0
      ? html`<span class="muted small">none</span>`
      : quote.taxes.map(
          (t, i) =>
            html`<label class="radio"><input type="checkbox" name="${p}-tax${i + 1}" value="on"${
              ticked(`tax${i + 1}`, line.taxes.includes(t.name)) ? html` checked` : ''
            }> ${t.name}</label>`,
        )
  }${err('taxes') ? html`<p class="field-error">${err('taxes')}</p>` : ''}</div></div>
${
  quote.sections.length > 1
    ? html`<div class="field section-cell">
    <label for="f-${p}-section">Section</label><select id="f-${p}-section" name="${p}-section">${quote.sections.map(
      (s, i) =>
        html`<option value="${s.id}"${
          s.id === value('section', line.sectionId) ? html` selected` : ''
        }>${s.title ?? `Section ${i + 1}`}</option>`,
    )}</select>${err('section') ? html`<p class="field-error">${err('section')}</p>` : ''}</div>`
    : ''
}
</div>
<input type="hidden" name="${p}-present" value="1">
<div class="line-foot">
<span class="optional-cell"><label><input type="checkbox" name="${p}-optional" value="on"${
    ticked('optional', line.optional) ? html` checked` : ''
  }><span class="wordy"> Optional (the customer ticks it)</span></label>
${
  line.optional
    ? html`<label class="first"><input type="checkbox" name="${p}-chosen" value="on"${
        ticked('chosen', line.chosen) ? html` checked` : ''
      }> Ticked at first</label>`
    : ''
}</span>
<span class="actions"><span class="line-amount" id="${p}-amount" data-line-amount>${formatMoney(
    line.amount,
    quote.currency,
    input.settings.locale,
  )}</span>
<span class="line-buttons">${
    position > 0
      ? html`<button type="submit" class="secondary move" name="do"
      value="up:${line.id}" aria-label="Move line ${position + 1} up">↑</button>`
      : ''
  }${
    position < count - 1
      ? html`<button type="submit" class="secondary move" name="do"
      value="down:${line.id}" aria-label="Move line ${position + 1} down">↓</button>`
      : ''
  }<button type="submit" class="danger" name="do"
  value="remove:${line.id}" aria-label="Remove line ${position + 1}">Remove</button></span></span>
</div>
</fieldset>`;
}

/** The column names over a section's line rows at desktop width (each field keeps its own label for screen readers). */
function linesHead(quote: QuoteView): SafeHtml {
  return html`<div class="lines-head" aria-hidden="true"><span></span><span>Description</span><span>Quantity</span>
<span>Unit</span><span>Price (${quote.currency})</span><span>Taxes</span>${
    quote.sections.length > 1 ? html`<span>Section</span>` : ''
  }<span>Optional</span><span class="amount">Amount</span><span></span></div>`;
}

/**
 * The totals as Save computed them. The data- attributes let the admin script recompute them as the lines are typed
 * (docs/quotes.md, "Totals as you type"): the locale, currency and its minor digits, and each tax's rate (thousandths
 * of a percent) by its position, as the lines' `tax1`, `tax2`… boxes name them.
 */
function totalsBlock(quote: QuoteView, locale: string): SafeHtml {
  return html`<dl class="totals" id="quote-totals" data-live-totals data-locale="${locale}"
    data-currency="${quote.currency}" data-minor-digits="${minorDigits(quote.currency)}">
<dt>Subtotal</dt><dd id="quote-subtotal" data-subtotal>${formatMoney(quote.subtotal, quote.currency, locale)}</dd>
${quote.taxes.map(
  (t, i) =>
    html`<dt>${t.name} (${formatDecimal(t.rate, 3).replace(
      /\.?0+$/,
      '',
    )} %)</dt><dd id="quote-tax${i + 1}" data-tax="${i + 1}" data-rate="${t.rate}">${formatMoney(
      t.amount,
      quote.currency,
      locale,
    )}</dd>`,
)}
<dt class="grand">Total</dt><dd class="grand" id="quote-total" data-total>${formatMoney(
    quote.total,
    quote.currency,
    locale,
  )}</dd>
</dl>`;
}

function pickCard(call: WorkspaceCall, input: BuilderInput, base: string): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<section class="card" aria-labelledby="pick-heading" id="add-from-list">
<h2 id="pick-heading">Add from the price list</h2>
${
  input.items.length === 0
    ? html`<p class="muted small">The price list is empty. <a href="${ws}/settings/price-list">Add items to it</a>${
        call.workspace.role === 'owner' ? '' : ' (owners)'
      }.</p>`
    : html`<form method="post" action="${base}/items">${csrfField(call.csrf)}
<div class="grid-2">
<fieldset class="field pick-rooms"><legend>Rooms</legend>${
        input.scans.length === 0
          ? html`<p class="muted small">No scan is attached to the lead: measured items are added with quantity 1.</p>`
          : input.scans.map(
              (scan) =>
                html`<p class="muted small">Scan of ${when(scan.receivedAt)}</p>${scan.rooms.map(
                  (room) =>
                    html`<label><input type="checkbox" name="room" value="${scan.scanId}:${room.index}" checked> ${
                      room.name || `Room ${room.index}`
                    }</label>`,
                )}`,
            )
      }</fieldset>
<fieldset class="field pick-items"><legend>Items</legend>${input.items.map(
        (item) =>
          html`<label><input type="checkbox" name="item"
            value="${item.id}"> ${item.name} <span class="muted small">${formatMoney(
              item.unitPrice,
              input.settings.currency,
              input.settings.locale,
            )} / ${unitLabel(item.unit)}${item.measure ? ' · measured' : ''}</span></label>`,
      )}${input.form.errors?.item ? html`<p class="field-error">${input.form.errors.item}</p>` : ''}</fieldset>
</div>
<p class="hint">A measured item becomes one line per ticked room, its quantity from that room; the others
one line each.</p>
<button type="submit" class="secondary">Add lines</button>
</form>`
}
</section>`;
}

/**
 * The free line's tax boxes: the quote's taxes, ticked as Settings has them on by default (as posted after a refusal).
 */
function newLineTaxes(input: BuilderInput): SafeHtml {
  const { quote, settings, form } = input;
  const ticked = (name: string, i: number) =>
    form.body ? form.body[`new-tax${i + 1}`] === 'on' : settings.taxes.some((t) => t.name === name && t.onByDefault);
  return html`<div class="field taxes-cell"><span class="muted small">Taxes</span><div>${
    quote.taxes.length === 0
      ? html`<span class="muted small">none</span>`
      : quote.taxes.map(
          (t, i) =>
            html`<label class="radio"><input type="checkbox" name="new-tax${i + 1}" value="on"${
              ticked(t.name, i) ? html` checked` : ''
            }> ${t.name}</label>`,
        )
  }</div></div>`;
}

/**
 * The draft's lines in their sections (docs/admin-app.md, "Quotes"): each section a heading to type, its subtotal,
 * its buttons (move, remove) and its choice boxes; its lines under it. A quote of one section without a heading shows
 * its heading field only, so it reads as the flat list it is.
 */
function sectionBlocks(input: BuilderInput): SafeHtml[] {
  const { quote, form } = input;
  const errors = form.errors ?? {};
  const posted = form.body;
  const count = quote.lines.length;
  let n = 0;
  return quote.sections.map((section, i) => {
    const name = `section-${section.id}-title`;
    const title = posted ? (posted[name] ?? '') : (section.title ?? '');
    const lines = quote.lines.filter((line) => line.sectionId === section.id);
    const label = section.title ?? `Section ${i + 1}`;
    const offered = posted ? many(posted, 'offer').includes(section.id) : section.choice !== null;
    const recommended = posted ? posted.recommended === section.id : section.recommended;
    const head = html`<div class="section-head">
<div class="field section-title"><label for="f-${name}">Section ${i + 1} heading</label><input type="text"
  id="f-${name}" name="${name}" value="${title}" maxlength="200"${
    errors[name] ? html` aria-invalid="true" aria-describedby="f-${name}-error"` : ''
  }>${errors[name] ? html`<p class="field-error" id="f-${name}-error">${errors[name]}</p>` : ''}</div>
<span class="section-subtotal">Subtotal <strong>${formatMoney(
      section.subtotal,
      quote.currency,
      input.settings.locale,
    )}</strong>${
      section.choice
        ? html` · <span class="badge">Choice ${section.choice.replace(/^c/, '')}${
            section.chosen ? ', chosen' : ''
          }</span>`
        : ''
    }</span>
<span class="actions">
${
  quote.sections.length > 1
    ? html`<label class="radio"><input type="checkbox" name="offer"
      value="${section.id}"${offered ? html` checked` : ''}> Offer as a choice</label><label
        class="radio"><input type="radio" name="recommended" value="${section.id}"${
          recommended ? html` checked` : ''
        }> Recommended</label>`
    : ''
}
${
  section.choice
    ? html`<button type="submit" class="secondary" name="do" value="choice-none:${section.id}">Undo choice</button>`
    : ''
}
${
  i > 0
    ? html`<button type="submit" class="secondary" name="do"
      value="section-up:${section.id}" aria-label="Move section ${label} up">↑</button>`
    : ''
}
${
  i < quote.sections.length - 1
    ? html`<button type="submit" class="secondary" name="do"
      value="section-down:${section.id}" aria-label="Move section ${label} down">↓</button>`
    : ''
}
${
  quote.sections.length > 1
    ? html`<button type="submit" class="danger" name="do"
      value="section-remove:${section.id}" aria-label="Remove section ${label}">Remove section</button>`
    : ''
}
</span></div>`;
    const body = lines.map((line) =>
      lineBlock(input, line, { position: n++, count, moved: line.id === input.movedLine }),
    );
    return html`<section class="quote-section${
      section.choice ? ' alternative' : ''
    }" id="section-${section.id}" data-section aria-label="${label}"${section.chosen ? '' : html` data-not-taken`}>
${head}${
      lines.length === 0
        ? html`<p class="muted small" data-empty-section>No lines in this section: move lines here with their
  Section select.</p>`
        : html`${linesHead(quote)}${body}`
    }
</section>`;
  });
}

/** The values a posted form repeats under one name (the gate keeps one; the builder re-shows the ones it had). */
function many(posted: Record<string, string>, name: string): string[] {
  const value = posted[name];
  return value === undefined ? [] : [value];
}

function draftBuilder(call: WorkspaceCall, input: BuilderInput, base: string): SafeHtml {
  const { quote, form } = input;
  const errors = form.errors ?? {};
  const posted = form.body;
  const v = (name: string, fallback: string | null) => (posted ? (posted[name] ?? '') : (fallback ?? ''));
  return html`${pickCard(call, input, base)}
<form method="post" action="${base}" novalidate id="builder">
${csrfField(call.csrf)}
<section class="card lines-card${quote.sections.length > 1 ? ' has-sections' : ''}" aria-labelledby="lines-heading">
<h2 id="lines-heading">Lines</h2>
<input type="hidden" name="line-order" value="" data-line-order><input type="hidden" value="" data-line-action>
${errors.sections ? html`<p class="field-error" id="f-sections-error" role="alert">${errors.sections}</p>` : ''}
${
  quote.lines.length === 0 && quote.sections.length <= 1
    ? html`<p class="muted small">No lines yet: add items from the price list above, or a free line below.</p>`
    : sectionBlocks(input)
}
${errors.lines ? html`<p class="field-error" id="f-lines-error">${errors.lines}</p>` : ''}
<div class="section-tools">
<div class="field"><label for="f-new-section-title">New section’s heading</label><input type="text"
  id="f-new-section-title" name="new-section-title" maxlength="200" value="${v('new-section-title', '')}"></div>
<button type="submit" class="secondary" name="do" value="section-add">Add section</button>
${
  quote.sections.length > 1
    ? html`<button type="submit" class="secondary" name="do" value="choice"
      id="offer-choice">Offer as a choice</button><span class="muted small">Tick 2 to 4 sections’ “Offer as a choice”,
      mark one Recommended: the customer picks one.</span>`
    : ''
}
</div>
<fieldset class="quote-line" id="new-line" data-line="new" data-new-line>
<legend>A free line (a negative price is a discount)</legend>
<div class="field"><label for="f-new-description">Description</label><textarea id="f-new-description"
  name="new-description" rows="2" maxlength="1000"${
    errors['new-description'] ? html` aria-invalid="true" aria-describedby="f-new-description-error"` : ''
  }>${v('new-description', '')}</textarea>${
    errors['new-description']
      ? html`<p class="field-error" id="f-new-description-error">${errors['new-description']}</p>`
      : ''
  }</div>
<div class="line-grid">
<div class="field"><label for="f-new-quantity">Quantity</label><input type="text" inputmode="decimal"
  id="f-new-quantity" name="new-quantity" value="${v('new-quantity', '1')}" maxlength="14">${
    errors['new-quantity'] ? html`<p class="field-error">${errors['new-quantity']}</p>` : ''
  }</div>
<div class="field"><label for="f-new-unit">Unit</label><select id="f-new-unit" name="new-unit">${UNITS.map(
    (u) => html`<option value="${u}"${u === v('new-unit', 'each') ? html` selected` : ''}>${UNIT_LABELS[u]}</option>`,
  )}</select></div>
<div class="field"><label for="f-new-price">Unit price (${quote.currency})</label><input type="text" inputmode="decimal"
  id="f-new-price" name="new-price" value="${v('new-price', '')}" maxlength="20">${
    errors['new-price'] ? html`<p class="field-error">${errors['new-price']}</p>` : ''
  }</div>
${newLineTaxes(input)}
</div>
<input type="hidden" name="new-taxes-shown" value="1">
<div class="line-foot"><span class="muted small">Typed here, it counts in the totals; Save or Add line adds it.</span>
<span class="actions"><span class="line-amount" id="new-line-amount"
  data-line-amount></span><button type="submit" class="secondary" name="do" value="add-line">Add line</button></span>
  </div>
</fieldset>
${totalsBlock(quote, input.settings.locale)}
</section>
<section class="card" aria-labelledby="details-heading">
<h2 id="details-heading">Details</h2>
${field({ name: 'title', label: 'Title', value: v('title', quote.title), errors, maxlength: 200 })}
<div class="grid-2">
<div>${field({
    name: 'customerName',
    label: 'Customer name',
    value: v('customerName', quote.customer.name),
    errors,
    maxlength: 200,
  })}
${field({
  name: 'customerEmail',
  label: 'Customer email',
  type: 'email',
  value: v('customerEmail', quote.customer.email),
  errors,
  maxlength: 254,
  hint: input.emailOn ? 'Send emails the quote here.' : undefined,
})}
${field({
  name: 'customerPhone',
  label: 'Customer phone',
  type: 'tel',
  value: v('customerPhone', quote.customer.phone),
  errors,
  maxlength: 40,
})}</div>
<div>${field({
    name: 'customerAddress',
    label: 'Customer address',
    value: v('customerAddress', quote.customer.address),
    errors,
    maxlength: 500,
    textarea: true,
  })}
${field({ name: 'validUntil', label: 'Valid until', type: 'date', value: v('validUntil', quote.validUntil), errors })}
${field({
  name: 'deposit',
  label: 'Deposit due on acceptance',
  value: v('deposit', quote.deposit ? depositText(quote.deposit, quote.currency) : ''),
  errors,
  maxlength: 20,
  hint: `30% of the total, an amount (500.00), or empty for none; taxes included.${
    quote.deposit ? ` Now ${formatMoney(quote.deposit.amount, quote.currency, input.settings.locale)}.` : ''
  }`,
})}</div>
</div>
${field({
  name: 'note',
  label: 'Note to the customer',
  value: v('note', quote.note),
  errors,
  maxlength: 5000,
  textarea: true,
})}
${field({ name: 'terms', label: 'Terms', value: v('terms', quote.terms), errors, maxlength: 5000, textarea: true })}
<div class="field"><label><input type="checkbox" name="showMeasurements" id="f-showMeasurements" value="on"${
    (posted ? posted.showMeasurements === 'on' : quote.showMeasurements) ? html` checked` : ''
  }> Show the customer how quantities were measured</label><p class="hint">Off: the customer reads each line’s
  description only. On: also “Kitchen: floor 13.02 m² + 10 % waste” under it, as you see it here.</p></div>
</section>
<div class="card" id="builder-actions">
${
  input.emailOn
    ? field({
        name: 'sendMessage',
        label: 'Your message in the email (optional)',
        value: v('sendMessage', quote.sendMessage),
        errors,
        maxlength: 2000,
        textarea: true,
        hint:
          'Goes in the email that Send makes, above the button to the quote, with your business’s address and ' +
          'phone under it. Save keeps it with the draft.',
      })
    : ''
}
<div class="actions">
<button type="submit" class="secondary" name="do" value="save">Save</button>
<button type="submit" class="secondary" formaction="${base}/preview" id="preview-quote">Preview as the customer</button>
<button type="submit" formaction="${base}/send" id="send-quote">Send to the customer</button>
<span class="muted small">${
    input.emailOn
      ? quote.customer.email
        ? `Send saves, then emails the quote to ${quote.customer.email}.`
        : 'No customer email: Send saves and gives you the link to pass on.'
      : 'Email is off: Send saves and gives you the customer’s link to copy.'
  } Preview saves, then shows the customer’s page. A sent quote is never changed; Revise makes a new revision.</span>
</div>
</div>
</form>`;
}

function sentView(input: BuilderInput): SafeHtml {
  const { quote, settings } = input;
  return html`<section class="card table-card" aria-labelledby="lines-heading">
<h2 id="lines-heading">Lines</h2>
<table class="list read-only-lines" id="quote-lines">
<thead><tr><th scope="col">Description</th><th scope="col" class="amount">Quantity</th>
<th scope="col" class="amount">Unit price</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>${quote.lines.map(
    (line) => html`<tr><td><span class="pre">${line.description}</span>${
      line.source ? html`<span class="source muted small">${measuredNote(line, settings)}</span>` : ''
    }${line.optional ? html` <span class="status">${line.chosen ? 'Optional, ticked' : 'Optional'}</span>` : ''}${
      line.taxes.length ? html`<span class="muted small"> · ${line.taxes.join(', ')}</span>` : ''
    }</td>
<td class="amount">${formatQuantity(
      line.quantity,
      settings.locale,
    )} ${unitLabel(line.unit)}</td><td class="amount">${formatMoney(
      line.unitPrice,
      quote.currency,
      settings.locale,
    )}</td><td class="amount">${formatMoney(line.amount, quote.currency, settings.locale)}</td></tr>`,
  )}</tbody>
</table>
<div class="card" style="border:0;box-shadow:none;margin:0">${totalsBlock(quote, settings.locale)}</div>
</section>
<div class="grid-2">
<section class="card" aria-labelledby="customer-heading"><h2 id="customer-heading">Customer</h2>
<dl class="facts">
<dt>Name</dt><dd>${quote.customer.name ?? '—'}</dd>
<dt>Email</dt><dd>${quote.customer.email ?? '—'}</dd>
<dt>Phone</dt><dd>${quote.customer.phone ?? '—'}</dd>
<dt>Address</dt><dd>${quote.customer.address ?? '—'}</dd>
</dl></section>
<section class="card" aria-labelledby="dates-heading"><h2 id="dates-heading">Dates</h2>
<dl class="facts">
<dt>Created</dt><dd>${when(quote.createdAt)}</dd>
<dt>Sent</dt><dd>${when(quote.sentAt, '—')}</dd>
<dt>Valid until</dt><dd><time datetime="${quote.validUntil}">${formatDay(quote.validUntil, settings.locale)}</time></dd>
<dt>Viewed</dt><dd>${
    quote.viewedAt
      ? html`${when(quote.viewedAt)} (${quote.viewCount} ${quote.viewCount === 1 ? 'view' : 'views'})`
      : 'not yet'
  }</dd>
${quote.acceptedAt ? html`<dt>Accepted</dt><dd>${when(quote.acceptedAt)} by ${quote.acceptedName ?? ''}</dd>` : ''}
${
  quote.declinedAt
    ? html`<dt>Declined</dt><dd>${when(quote.declinedAt)}${
        quote.declineReason ? html`: ${quote.declineReason}` : ''
      }</dd>`
    : ''
}
${quote.withdrawnAt ? html`<dt>Withdrawn</dt><dd>${when(quote.withdrawnAt)}</dd>` : ''}
</dl></section>
</div>
${
  quote.title || quote.note || quote.terms || quote.sendMessage
    ? html`<section class="card"><h2>Title, note and terms</h2><dl class="facts">
    <dt>Title</dt><dd>${quote.title ?? '—'}</dd><dt>Note</dt><dd>${quote.note ?? '—'}</dd>
    <dt>Terms</dt><dd>${quote.terms ?? '—'}</dd>${
      quote.sendMessage ? html`<dt>Message in the email</dt><dd class="pre">${quote.sendMessage}</dd>` : ''
    }</dl></section>`
    : ''
}`;
}

const kilobytes = (size: number | null) => `${Math.max(1, Math.round((size ?? 0) / 1024))} KB`;

/** One PDF's line on the staff's page: ready (with its name, size and SHA-256), being made, or failed and why. */
function documentLine(call: WorkspaceCall, base: string, doc: StoredDocument, label: string): SafeHtml {
  if (doc.state === 'done')
    return html`<li><a href="${base}/pdf${
      doc.purpose === 'accepted' ? '/accepted' : ''
    }">${doc.fileName}</a> <span class="muted small">${label} · ${kilobytes(doc.size)} ·
    SHA-256 <code>${doc.sha256 ?? ''}</code></span></li>`;
  if (doc.state === 'failed')
    return html`<li class="pdf-failed">
    <strong>${label}: the PDF could not be made.</strong> <span class="small">${doc.error ?? ''}</span>
${doc.purpose === 'sent' ? html`<span class="muted small"> The customer’s email went with the link only.</span>` : ''}
${actionButton({ action: `${base}/pdf/retry`, csrf: call.csrf, label: 'Make PDF again', kind: 'secondary' })}</li>`;
  return html`<li>${label}: <span class="muted">being made${
    doc.error ? html` (the last try failed: ${doc.error}; trying again)` : ''
  }…</span></li>`;
}

function documentsCard(call: WorkspaceCall, base: string, input: BuilderInput): SafeHtml | string {
  const docs = input.documents;
  if (!docs?.sent && !docs?.accepted) return '';
  return html`<section class="card" aria-labelledby="pdf-heading" id="pdf"><h2 id="pdf-heading">PDF</h2>
<p class="muted small">Made once when the quote was sent, and kept as it was: what the customer received.</p>
<ul class="plain">${docs.sent ? documentLine(call, base, docs.sent, 'As sent') : ''}${
    docs.accepted ? documentLine(call, base, docs.accepted, 'Accepted copy') : ''
  }</ul></section>`;
}

/** The builder of a draft, or a sent quote read-only with what can be done with it (Revise, Withdraw, Copy). */
export function quotePage(call: WorkspaceCall, input: BuilderInput): SafeHtml {
  const { quote } = input;
  const ws = workspacePath(call.workspace.workspaceId);
  const base = `${ws}/quotes/${quote.id}`;
  const live = quote.status === 'sent' || quote.status === 'viewed' || quote.status === 'expired';
  const actions = [
    quote.status !== 'draft'
      ? html`<a class="button secondary" href="${base}/preview" id="preview-quote">Preview as the customer</a>`
      : '',
    input.documents?.sent ? html`<a class="button secondary" href="${base}/pdf" id="quote-pdf">PDF</a>` : '',
    live ? actionButton({ action: `${base}/revise`, csrf: call.csrf, label: 'Revise' }) : '',
    live
      ? actionButton({
          action: `${base}/withdraw`,
          csrf: call.csrf,
          label: 'Withdraw',
          kind: 'danger',
          confirm: 'Withdraw this quote? Its link will say it was withdrawn.',
        })
      : '',
    quote.status !== 'draft' ? actionButton({ action: `${base}/copy`, csrf: call.csrf, label: 'Copy' }) : '',
  ];
  return html`<p class="small"><a href="${ws}/leads/${quote.leadId}">← ${input.leadName}</a> · <a
    href="${ws}/quotes">Quotes</a></p>
<div class="page-head"><div><h1>${quoteName(quote)}${
    quote.title ? html` <span class="muted">· ${quote.title}</span>` : ''
  }</h1><p class="muted small">${statusBadge(quote.status)} · ${
    quote.customer.name ?? 'No customer name'
  } · total <strong>${formatMoney(quote.total, quote.currency, input.settings.locale)}</strong></p></div>
<div class="actions">${actions}</div></div>
${quoteNotice(call.query.notice)}
${input.form.problem ? html`<p class="notice error" role="alert">${input.form.problem}</p>` : ''}
${
  quote.customerUrl && quote.status !== 'draft'
    ? html`<section class="card" aria-labelledby="link-heading"><h2 id="link-heading">The customer’s link</h2>
<p class="muted small">Anyone with this link can read the quote and accept or decline it; it is never listed
anywhere.</p>
<div class="copy-row"><code class="copy-value" id="customer-link">${quote.customerUrl}</code><button type="button"
  class="secondary" data-copy-target="#customer-link" data-status="#copy-status" hidden>Copy</button></div>
<p class="status-line" id="copy-status" role="status"></p></section>`
    : ''
}
${documentsCard(call, base, input)}
${input.invoices ?? ''}
${quote.status === 'draft' ? draftBuilder(call, input, base) : sentView(input)}`;
}

/** The lead page's Quotes block: its quotes and New quote (a page to pick the attached scans' rooms and the items). */
export function leadQuotesCard(
  call: WorkspaceCall,
  leadId: string,
  quotes: QuoteSummary[],
  settings: WorkspaceSettings,
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<section class="card${
    quotes.length ? ' table-card' : ''
  }" aria-labelledby="lead-quotes-heading" id="lead-quotes">
<div class="page-head" style="margin:0;padding:${
    quotes.length ? '.9rem .75rem .6rem' : '0 0 .75rem'
  }"><h2 id="lead-quotes-heading" style="margin:0">Quotes</h2>
<a class="button" href="${ws}/leads/${leadId}/quotes/new" id="new-quote">New quote</a></div>
${
  quotes.length === 0
    ? html`<p class="muted small">No quote yet. New quote starts a draft with the customer’s details,
    priced from the rooms of the attached scans you pick.</p>`
    : quotesTable(call, quotes, settings, 'lead-quotes-list')
}
</section>`;
}

/** The scan page's small block: the quotes with a line priced from this scan. */
export function scanQuotesCard(
  call: WorkspaceCall,
  quotes: QuoteSummary[],
  settings: WorkspaceSettings,
): SafeHtml | string {
  if (quotes.length === 0) return '';
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<section class="card" aria-labelledby="scan-quotes-heading" id="scan-quotes">
<h2 id="scan-quotes-heading">Quotes priced from this scan</h2>
<ul class="plain">${quotes.map(
    (q) =>
      html`<li><a href="${ws}/quotes/${q.id}">${quoteName(q)}</a> ${statusBadge(q.status)} <span
        class="muted small">${q.customerName ?? ''} · ${formatMoney(q.total, q.currency, settings.locale)}</span></li>`,
  )}</ul>
</section>`;
}
