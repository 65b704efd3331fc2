import { formatMoney } from '../../../domain/money.js';
import {
  hundredthsText,
  UNIT_LABELS,
  type PriceListItem,
  type Unit,
} from '../../../domain/price-list/price-list-item.js';
import type { ScanRooms } from '../../../domain/quotes/lead-rooms.js';
import type { RoomFigures } from '../../../domain/quotes/room-figures.js';
import type { WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { formatArea } from '../../../domain/units.js';
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
  /** Each room's floor area and walls, keyed `{scanId}:{room}` (room-figures.ts). */
  figures: Map<string, RoomFigures>;
  /** The price list: items with a measure are priced per room, the others added once. */
  items: PriceListItem[];
  settings: WorkspaceSettings;
  /** After a refusal: the boxes as they were ticked (`scanId:room` and item ids), and the problem next to its box. */
  picked?: { rooms: string[]; items: string[] };
  errors?: FormErrors;
}

/** "Floor 13.02 m² · walls 32.78 m²" in the workspace's units; what a room lacks is left out. */
function figuresText(figures: RoomFigures | undefined, settings: WorkspaceSettings): string {
  if (!figures) return '';
  return [
    figures.floorArea === null ? '' : `Floor ${formatArea(figures.floorArea, settings.units)}`,
    figures.wallArea === null ? '' : `walls ${formatArea(figures.wallArea, settings.units)}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * New quote's first step (a GET page, so it works without scripts): the rooms of the lead's attached scans, all
 * ticked, each with its floor area and walls; the measured price-list items to price them with; and the items added
 * once (a call-out fee), pickable at once. Create makes the draft with one line per ticked room × ticked measured
 * item (a pack item once over the rooms) and one line per ticked other item (docs/quotes.md, "Lines from scans").
 */
export function newQuotePage(call: WorkspaceCall, input: NewQuoteInput): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const errors = input.errors ?? {};
  const roomTicked = (value: string) => (input.picked ? input.picked.rooms.includes(value) : true);
  const itemTicked = (id: string) => input.picked?.items.includes(id) ?? false;
  const error = (name: string) =>
    errors[name] ? html`<p class="field-error" id="f-${name}-error">${errors[name]}</p>` : '';
  const { settings } = input;
  const measured = input.items.filter((i) => i.measure !== null);
  const once = input.items.filter((i) => i.measure === null);
  // A pack item is priced by the pack ("$48.00 / pack of 10 m²"), the others by their unit.
  const per = (item: PriceListItem) =>
    `${item.pack === null ? '' : `pack of ${hundredthsText(item.pack)} `}${
      UNIT_LABELS[item.unit as Unit] ?? item.unit
    }`;
  const itemLabel = (item: PriceListItem, extra: string) =>
    html`<label><input type="checkbox" name="item" value="${item.id}"${
      itemTicked(item.id) ? html` checked` : ''
    }> <span>${item.name} <span class="muted small">${formatMoney(
      item.unitPrice,
      settings.currency,
      settings.locale,
    )} / ${per(item)}${extra}</span></span></label>`;
  const noItems = html`<p class="muted small">The price list has no such item. <a href="${ws}/settings/price-list">Open
  the price list</a>${call.workspace.role === 'owner' ? '' : ' (owners edit it)'}.</p>`;
  return html`<p class="small"><a href="${ws}/leads/${input.leadId}">← ${input.leadName}</a></p>
<div class="page-head"><div><h1>New quote</h1>
<p class="muted">For ${input.leadName}. Pick the rooms and what to price in them; you can change
every line afterwards.</p></div></div>
${errors.form ? html`<p class="notice error" role="alert">${errors.form}</p>` : ''}
<form method="post" action="${ws}/leads/${input.leadId}/quotes" class="new-quote">
${csrfField(call.csrf)}
<div class="grid-2">
<section class="card" aria-labelledby="rooms-heading">
<fieldset class="field pick-rooms"${
    errors.room ? html` aria-describedby="f-room-error"` : ''
  }><legend id="rooms-heading">Rooms</legend>${
    input.scans.length === 0
      ? html`<p class="muted small">No scan is attached to this lead, so there are no rooms to measure from: pick what
      to add once, or start empty and add lines in the builder.</p>`
      : input.scans.map(
          (scan) =>
            html`<p class="muted small pick-scan">Scan of ${when(scan.receivedAt)}</p>${
              scan.rooms.length === 0
                ? html`<p class="muted small">This scan has no rooms.</p>`
                : scan.rooms.map((room) => {
                    const value = `${scan.scanId}:${room.index}`;
                    const figures = figuresText(input.figures.get(value), settings);
                    return html`<label><input type="checkbox" name="room" value="${value}"${
                      roomTicked(value) ? html` checked` : ''
                    }> <span>${
                      room.name || `Room ${room.index}`
                    } <span class="figures muted small">${figures || 'Not measured'}</span></span></label>`;
                  })
            }`,
        )
  }${error('room')}</fieldset>
</section>
<section class="card" aria-labelledby="items-heading">
<h2 id="items-heading" class="offscreen">Items</h2>
${
  input.scans.length === 0
    ? ''
    : html`<fieldset class="field pick-items"${
        errors.item ? html` aria-describedby="f-item-error"` : ''
      }><legend>Priced by each room</legend>${
        measured.length === 0
          ? noItems
          : measured.map((item) => itemLabel(item, ` · ${MEASURE_LABELS[item.measure ?? ''] ?? ''}`))
      }${error('item')}</fieldset>`
}
<fieldset class="field pick-items pick-once"><legend>Added once</legend>${
    once.length === 0 ? noItems : once.map((item) => itemLabel(item, ''))
  }</fieldset>
</section>
</div>
<div class="card actions">
<button type="submit" id="create-quote">Create the draft</button>
<span class="muted small">One line per ticked room and measured item, its quantity from that room (a
room without the figure gets no line; a tin or pack item is one line over all the rooms); one line for each
item added once. Nothing reaches the customer until you press Send.</span>
</div>
</form>`;
}
