import { formatMoney } from '../../../domain/money.js';
import { UNIT_LABELS, type PriceListItem, type Unit } from '../../../domain/price-list/price-list-item.js';
import type { ScanRooms } from '../../../domain/quotes/lead-rooms.js';
import type { WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { csrfField, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { MEASURE_LABELS } from './price-list-area.js';

export interface NewQuoteInput {
  leadId: string;
  leadName: string;
  scans: ScanRooms[];
  /** The price list's items that have a measure: the ones a room's figure can price. */
  items: PriceListItem[];
  settings: WorkspaceSettings;
  /** After a refusal: the boxes as they were ticked (`scanId:room` and item ids), and the problem next to its box. */
  picked?: { rooms: string[]; items: string[] };
  errors?: FormErrors;
}

/**
 * New quote's first step (a GET page, so it works without scripts): the rooms of the lead's attached scans, all
 * ticked, and the measured price-list items to price them with. Create makes the draft with one line per ticked
 * room × ticked item, each quantity from that room's figure (docs/quotes.md, "Lines from scans").
 */
export function newQuotePage(call: WorkspaceCall, input: NewQuoteInput): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const errors = input.errors ?? {};
  const roomTicked = (value: string) => (input.picked ? input.picked.rooms.includes(value) : true);
  const itemTicked = (id: string) => input.picked?.items.includes(id) ?? false;
  const error = (name: string) =>
    errors[name] ? html`<p class="field-error" id="f-${name}-error">${errors[name]}</p>` : '';
  return html`<p class="small"><a href="${ws}/leads/${input.leadId}">← ${input.leadName}</a></p>
<div class="page-head"><div><h1>New quote</h1><p class="muted">For ${input.leadName}. Pick the rooms and what to price in them; you can change every line afterwards.</p></div></div>
${errors.form ? html`<p class="notice error" role="alert">${errors.form}</p>` : ''}
<form method="post" action="${ws}/leads/${input.leadId}/quotes" class="new-quote">
${csrfField(call.csrf)}
<div class="grid-2">
<section class="card" aria-labelledby="rooms-heading">
<fieldset class="field pick-rooms"${errors.room ? html` aria-describedby="f-room-error"` : ''}><legend id="rooms-heading">Rooms</legend>${
    input.scans.length === 0
      ? html`<p class="muted small">No scan is attached to this lead, so there are no rooms to measure from: the draft starts empty, and you add lines in the builder.</p>`
      : input.scans.map(
          (scan) =>
            html`<p class="muted small pick-scan">Scan of ${when(scan.receivedAt)}</p>${
              scan.rooms.length === 0
                ? html`<p class="muted small">This scan has no rooms.</p>`
                : scan.rooms.map(
                    (room) =>
                      html`<label><input type="checkbox" name="room" value="${scan.scanId}:${room.index}"${roomTicked(`${scan.scanId}:${room.index}`) ? html` checked` : ''}> ${room.name || `Room ${room.index}`}</label>`,
                  )
            }`,
        )
  }${error('room')}</fieldset>
</section>
${
  input.scans.length === 0
    ? ''
    : html`<section class="card" aria-labelledby="items-heading">
<fieldset class="field pick-items"${errors.item ? html` aria-describedby="f-item-error"` : ''}><legend id="items-heading">Items to price</legend>${
        input.items.length === 0
          ? html`<p class="muted small">The price list has no item measured by a room’s figure. <a href="${ws}/settings/price-list">Open the price list</a>${call.workspace.role === 'owner' ? '' : ' (owners edit it)'}.</p>`
          : input.items.map(
              (item) =>
                html`<label><input type="checkbox" name="item" value="${item.id}"${itemTicked(item.id) ? html` checked` : ''}> <span>${item.name} <span class="muted small">${formatMoney(item.unitPrice, input.settings.currency, input.settings.locale)} / ${UNIT_LABELS[item.unit as Unit] ?? item.unit} · ${MEASURE_LABELS[item.measure ?? ''] ?? ''}</span></span></label>`,
            )
      }${error('item')}</fieldset>
</section>`
}
</div>
<div class="card actions">
<button type="submit" id="create-quote">Create the draft</button>
<span class="muted small">One line per ticked room and item, its quantity from that room (a room without the figure gets no line). Nothing reaches the customer until you press Send.</span>
</div>
</form>`;
}
