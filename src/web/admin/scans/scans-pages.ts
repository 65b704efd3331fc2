import type { ScanListFilter, ScanView } from '../../../domain/scans/list-scans.js';
import type { InboxLead } from '../../../domain/leads/list-leads.js';
import { leadLabel } from '../../../domain/scans/scan-lead.js';
import type { Units } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField } from '../form-controls.js';
import { bytes, when } from '../formats.js';
import { notice } from '../notices.js';
import { numberedPager } from '../pagers.js';
import { areaText } from './scan-area-text.js';
import { floorPlanSvg } from './floor-plan.js';
import { ROOMS_PER_PAGE, type ScanPageRooms } from './scan-page-bounds.js';
import type { ScanFigures } from '../../../domain/scans/measure-scan.js';
import { MAX_ROOM_RENAME_LENGTH } from '../../../domain/scans/rename-room.js';
import {
  figureText,
  MEASUREMENT_COLUMNS,
  roomNote,
  type MeasurementKey,
} from '../../../domain/scans/measurement-table.js';
import type { Figure, Plan } from '../../../domain/scans/measure/index.js';
import { formatArea } from '../../../domain/units.js';

export const SCANS_PER_PAGE = 25;

/** The Excel link's accessible name (plain text: the html tag leaves it as it is). */
const EXCEL_LABEL = 'Download measurements (Excel)';

export function maskKey(key: string): string {
  return `lsk_…${key.slice(-4)}`;
}

function roomNames(scan: ScanView): string {
  return scan.rooms.map((r) => r.name).join(', ');
}

function connectionTest(baseUrl: string, key: string | null): string {
  // Double quotes around the key's header, so a shell fills in $LEADSCAN_KEY (single quotes would send it literally).
  return (
    `curl -sS -X POST '${baseUrl}/api/scan/upload' -H "x-scan-key: ${key ?? '$LEADSCAN_KEY'}" -H ` +
    `'content-type: application/json' -d '{"rooms":[]}'`
  );
}

export interface ScansPageInput {
  uploadKey: string;
  shown: boolean;
  lastConnectedAt: string | null;
  createdAt: string;
  scans: ScanView[];
  page: number;
  hasOlder: boolean;
  filter: ScanListFilter;
  units: Units;
}

/** Not attached (scans still waiting for a job, the default) and All, as tabs that keep nothing else. */
function filterTabs(base: string, filter: ScanListFilter): SafeHtml {
  const tab = (value: ScanListFilter, label: string, href: string) =>
    html`<a class="tab" href="${href}"${value === filter ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Which scans">${tab('unattached', 'Not attached', base)}${tab(
    'all',
    'All',
    `${base}?scans=all`,
  )}</nav>`;
}

/** Scans (docs/admin-app.md): the upload key with Show/Copy/Regenerate, the connection test, every scan, paged. */
export function scansPage(call: WorkspaceCall, input: ScansPageInput): SafeHtml {
  const workspace = call.workspace;
  const base = workspacePath(workspace.workspaceId, 'scans');
  const isOwner = workspace.role === 'owner';
  const baseUrl = call.ctx.config.publicBaseUrl;
  const keyText = input.shown ? input.uploadKey : maskKey(input.uploadKey);
  return html`<div class="page-head"><div><h1>Scans</h1>
  <p class="muted">Rooms your scanning app sent to ${workspace.workspaceName}, newest first.</p></div></div>
${notice(call.query.notice)}
<div class="grid-2">
<section class="card" aria-labelledby="key-heading">
<h2 id="key-heading">Upload key</h2>
<p class="muted small">Put this key into the scanning app. Anyone with it can upload scans to this workspace.</p>
<div class="secret">
<code id="upload-key"${input.shown ? html` data-shown="true"` : ''}>${keyText}</code>
${
  input.shown
    ? html`<a class="button secondary" href="${base}">Hide</a>`
    : html`<a class="button secondary" href="${base}?show=key" id="show-key">Show</a>`
}
<button type="button" class="secondary" id="copy-key" data-copy-url="${base}/key" data-csrf="${call.csrf}"
  data-status="#key-status" hidden>Copy</button>
</div>
<p class="status-line" id="key-status" role="status" aria-live="polite"></p>
<dl class="facts">
<dt>Last connected</dt><dd id="last-connected">${when(input.lastConnectedAt, 'not yet')}</dd>
<dt>Made</dt><dd>${when(input.createdAt)}</dd>
</dl>
${
  isOwner
    ? html`<div class="actions">${actionButton({
        action: `${base}/key/regenerate`,
        csrf: call.csrf,
        label: 'Regenerate',
        kind: 'danger',
        confirm: 'Make a new upload key? The current key stops working at once; the scanning app needs the new one.',
      })}<span class="muted small">After a lost phone or a leaked key. The old key is refused at once.</span></div>`
    : html`<p class="muted small">Only an owner can regenerate the key.</p>`
}
</section>
<section class="card" aria-labelledby="test-heading">
<h2 id="test-heading">Test the connection</h2>
<p class="muted small">Sends no rooms; stores nothing; updates “Last connected”.${
    input.shown ? '' : html` Click <strong>Show</strong> to fill in the key, or set <code>LEADSCAN_KEY</code>.`
  }</p>
<div class="copy-row"><pre id="connection-test">${connectionTest(baseUrl, input.shown ? input.uploadKey : null)}</pre>
<button type="button" class="secondary" data-copy-target="#connection-test" data-status="#test-status"
  hidden>Copy</button></div>
<p class="status-line" id="test-status" role="status" aria-live="polite"></p>
<p class="muted small">An answer of <code>{"ok":true,"count":0}</code> means the key works.</p>
</section>
</div>
<section class="card table-card" aria-labelledby="list-heading">
<h2 id="list-heading" class="offscreen">Arrived scans</h2>
${filterTabs(base, input.filter)}
${
  input.scans.length === 0
    ? html`<p class="empty">${
        input.page > 1
          ? 'No older scans.'
          : input.filter === 'unattached'
            ? html`No scans waiting for a lead. New uploads from the scanning app show up
            here. <a href="${base}?scans=all">List all scans</a>.`
            : 'No scans yet. When the scanning app uploads rooms with the key above, they show up here.'
      }</p>`
    : html`<table class="list" id="scans">
<thead><tr><th scope="col">Received</th><th scope="col">Rooms</th><th scope="col">Floor area</th>
<th scope="col">Lead</th><th scope="col">Size</th><th scope="col">Device</th></tr></thead>
<tbody>
${input.scans.map(
  (scan) => html`<tr${scan.isNew ? html` class="unread"` : ''}>
<td data-label="Received"><a href="${base}/${scan.id}">${when(scan.receivedAt)}</a>${
    scan.isNew ? html` <span class="badge new">New</span>` : ''
  }</td>
<td data-label="Rooms" class="rooms"><strong>${scan.count}</strong>${scan.count ? html` · ${roomNames(scan)}` : ''}</td>
<td data-label="Floor area" class="num">${areaText(scan.floorArea, input.units)}</td>
<td data-label="Lead">${
    scan.lead
      ? html`<a href="${workspacePath(workspace.workspaceId, `leads/${scan.lead.id}`)}">${leadLabel(scan.lead)}</a>`
      : html`<span class="muted">—</span>`
  }</td>
<td data-label="Size" class="num">${bytes(scan.byteSize)}</td>
<td data-label="Device" class="muted small">${scan.userAgent ?? 'unknown'}</td>
</tr>`,
)}
</tbody>
</table>`
}
${numberedPager({
  base: input.filter === 'all' ? `${base}?scans=all` : base,
  page: input.page,
  hasOlder: input.hasOlder,
})}
</section>`;
}

/** A Rename refused (a blank or too long name): shown again beside its room, open, with what was typed. */
export interface RoomRename {
  /** The room's number from 1. */
  room: number;
  value: string;
  error: string;
}

export interface ScanPageInput {
  scan: ScanView;
  units: Units;
  figures: ScanFigures;
  /** The stored JSON of rooms that were not recognized, pretty-printed (index → text), shown so nothing is hidden. */
  unrecognized: Map<number, string>;
  /** What was typed into "Find a lead" (kept in the field), and the leads it found. */
  find: string;
  found: InboxLead[] | null;
  /** The rooms this page shows (50 a page) with their plans bounded for drawing (scan-page-bounds.ts). */
  shown: ScanPageRooms;
  rename?: RoomRename | undefined;
}

/** Rename, under a room's name: a form that works without scripts; open again with the message when refused. */
function renameForm(call: WorkspaceCall, base: string, room: { index: number; name: string }, refused?: RoomRename) {
  const number = room.index + 1;
  const id = `rename-${number}`;
  const failed = refused?.room === number ? refused : undefined;
  return html`<details class="rename"${failed ? html` open` : ''}><summary>Rename</summary>
<form method="post" action="${base}/rooms/${number}/rename" class="rename-form">${csrfField(call.csrf)}
<label for="${id}">Name of room ${number}</label>
<input type="text" id="${id}" name="name" value="${
    failed ? failed.value : room.name
  }" maxlength="${MAX_ROOM_RENAME_LENGTH}" required${
    failed ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }>
${failed ? html`<p class="field-error" id="${id}-error">${failed.error}</p>` : ''}
<button type="submit" class="secondary">Save name</button></form></details>`;
}

function attachSection(call: WorkspaceCall, base: string, input: ScanPageInput): SafeHtml {
  const { scan, found, find } = input;
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<section class="card" aria-labelledby="lead-heading">
<h2 id="lead-heading">Lead</h2>
${
  scan.lead
    ? html`<p id="attached-lead">Attached to <a href="${ws}/leads/${scan.lead.id}">${leadLabel(scan.lead)}</a>${
        scan.lead.email && scan.lead.name ? html` <span class="muted small">${scan.lead.email}</span>` : ''
      }</p>
${actionButton({ action: `${base}/detach`, csrf: call.csrf, label: 'Detach', kind: 'secondary' })}`
    : html`<p class="muted small" id="attached-lead">Not attached yet. Find the lead this scan is for by
    name, email or phone.</p>`
}
<form method="get" action="${base}" class="search-row" role="search">
<label for="f-find">Find a lead</label>
<input type="search" id="f-find" name="find" value="${find}" maxlength="200" placeholder="Name, email or phone">
<button type="submit" class="secondary">Find</button>
</form>
${
  found === null
    ? ''
    : found.length === 0
      ? html`<p class="muted small" id="found-leads">No lead matches “${find}”.</p>`
      : html`<ul class="plain" id="found-leads">${found.map(
          (lead) => html`<li><form class="inline attach"
            method="post" action="${base}/attach">${csrfField(call.csrf)}<input type="hidden"
              name="leadId" value="${lead.id}">
<span><strong>${lead.name ?? lead.email ?? lead.phone ?? lead.id}</strong> <span class="muted small">${[
            lead.email,
            lead.phone,
          ]
            .filter(Boolean)
            .join(' · ')} · ${lead.sourceName}, ${when(lead.receivedAt)}</span></span>
<button type="submit" class="secondary">Attach</button></form></li>`,
        )}</ul>`
}
</section>`;
}

/** One scan: its lead, its rooms, exact downloads of the body and of each room, Delete for owners. */
export function scanPage(call: WorkspaceCall, input: ScanPageInput): SafeHtml {
  const { scan } = input;
  const workspace = call.workspace;
  const base = workspacePath(workspace.workspaceId, `scans/${scan.id}`);
  return html`<p class="small"><a href="${workspacePath(workspace.workspaceId, 'scans')}">← Scans</a></p>
<div class="page-head"><div><h1>Scan of ${when(scan.receivedAt)}</h1><p class="muted mono small">${scan.id}</p></div>
<div class="actions"><a class="button" href="${base}/body" download id="download-body">Download</a>
${
  workspace.role === 'owner'
    ? actionButton({
        action: `${base}/delete`,
        csrf: call.csrf,
        label: 'Delete',
        kind: 'danger',
        confirm: 'Delete this scan and its rooms? This cannot be undone.',
      })
    : ''
}</div></div>
${notice(call.query.notice)}
<div class="grid-2">
<section class="card">
<dl class="facts">
<dt>Received</dt><dd>${when(scan.receivedAt)}</dd>
<dt>Rooms</dt><dd>${scan.count}</dd>
<dt>Floor area</dt><dd id="scan-floor-area">${areaText(input.figures.floorArea, input.units)}</dd>
<dt>Size</dt><dd>${bytes(scan.byteSize)} (${scan.byteSize} bytes, stored exactly as sent)</dd>
<dt>Device</dt><dd>${scan.userAgent ?? 'unknown'}</dd>
</dl>
</section>
${attachSection(call, base, input)}
</div>
${measurementsSection(call, base, input)}
${plansSection(input)}`;
}

const sum = (values: Array<number | null | undefined>) => {
  const present = values.filter((v): v is number => typeof v === 'number');
  return present.length > 0 ? present.reduce((a, b) => a + b, 0) : null;
};

/** The columns whose room figures add up to a total for the scan (a height or a perimeter does not). */
const TOTALLED: ReadonlySet<MeasurementKey> = new Set([
  'floorArea',
  'wallAreaGross',
  'wallAreaNet',
  'skirting',
  'volume',
]);

/** The figures the table shows as columns; the rest open under each room's "More" (so the table fits 1280 px). */
const SHOWN_KEYS: ReadonlySet<MeasurementKey> = new Set(['floorArea', 'perimeter', 'ceilingHeight', 'wallAreaNet']);
const SHOWN_COLUMNS = MEASUREMENT_COLUMNS.filter(([key]) => SHOWN_KEYS.has(key));
const DETAIL_COLUMNS = MEASUREMENT_COLUMNS.filter(([key]) => !SHOWN_KEYS.has(key));

/** The rooms with their figures in the workspace's units, and the scan's totals: what a quote is priced from. */
function measurementsSection(call: WorkspaceCall, base: string, input: ScanPageInput): SafeHtml {
  const { scan, figures, units, shown, rename } = input;
  if (scan.rooms.length === 0)
    return html`<section class="card"><p class="empty">This upload has no rooms.</p></section>`;
  // The totals add up every room of the scan; the table lists this page's.
  const rooms = figures.rooms;
  // A column's total for the scan, said like a room's figure (the floor area's is the one the scan keeps).
  const totalOf = (key: MeasurementKey): Figure | null => {
    const value = key === 'floorArea' ? figures.floorArea : sum(rooms.map((r) => r.measurement[key]?.value));
    return value === null ? null : { value, source: 'the rooms added up' };
  };
  const count = (key: 'doors' | 'windows' | 'openings') => sum(rooms.map((r) => r.measurement[key]));
  return html`<section class="card table-card" aria-labelledby="rooms-heading">
<div class="table-head"><h2 id="rooms-heading">Rooms and measurements</h2>
<div class="actions"><a class="button secondary" href="${base}/measurements.csv"
  download id="download-measurements">Download measurements (CSV)</a><a class="button secondary"
    href="${base}/measurements.xlsx" download id="download-measurements-xlsx" aria-label="${EXCEL_LABEL}">Excel</a>
</div></div>
${roomsPager(base, shown, rooms.length)}
<div class="table-scroll"><table class="list measurements wide-labels" id="rooms">
<thead><tr><th scope="col">#</th><th scope="col">Room</th>${SHOWN_COLUMNS.map(
    ([, label]) => html`<th scope="col" class="num">${label}</th>`,
  )}<th scope="col">Details</th></tr></thead>
<tbody>${shown.rooms.map((room) => {
    const m = room.measurement;
    const note = roomNote(m);
    const cell = (key: MeasurementKey, kind: 'area' | 'length' | 'volume') =>
      html`${m[key] ? html`<span title="${m[key]!.source}">${figureText(m[key], kind, units)}</span>` : '—'}`;
    return html`<tr${
      m.recognized ? '' : html` class="unrecognized"`
    }><td data-label="#" class="num">${room.index + 1}</td>
<td data-label="Room" class="rooms"><strong id="room-name-${room.index + 1}">${room.name}</strong>${
      note ? html`<br><span class="muted small">${note}</span>` : ''
    }${renameForm(call, base, room, rename)}</td>
${SHOWN_COLUMNS.map(([key, label, kind]) => html`<td data-label="${label}" class="num">${cell(key, kind)}</td>`)}
<td data-label="Details" class="room-details"><details><summary>More</summary><dl class="facts">
${DETAIL_COLUMNS.map(([key, label, kind]) => html`<dt>${label}</dt><dd>${cell(key, kind)}</dd>`)}
<dt>Doors · windows</dt><dd>${
      m.doors === null ? '—' : `${m.doors} · ${m.windows ?? 0}${m.openings ? ` · ${m.openings} open` : ''}`
    }</dd>
</dl><a href="${base}/rooms/${room.index}" download>Download room JSON</a></details></td></tr>`;
  })}</tbody>
<tfoot><tr><th scope="row" colspan="2">Total (${rooms.length} ${rooms.length === 1 ? 'room' : 'rooms'})</th>
${SHOWN_COLUMNS.map(([key, label, kind]) =>
  TOTALLED.has(key)
    ? html`<td data-label="${label}" class="num"${key === 'floorArea' ? html` id="total-floor-area"` : ''}>${figureText(
        totalOf(key),
        kind,
        units,
      )}</td>`
    : html`<td class="empty-cell"></td>`,
)}
<td data-label="Details" class="room-details"><details><summary>More totals</summary><dl class="facts">
${DETAIL_COLUMNS.filter(([key]) => TOTALLED.has(key)).map(
  ([key, label, kind]) => html`<dt>${label}</dt><dd>${figureText(totalOf(key), kind, units)}</dd>`,
)}
<dt>Doors · windows</dt><dd>${count('doors') ?? '—'} · ${count('windows') ?? 0}</dd>
</dl></details></td></tr></tfoot>
</table></div>
</section>`;
}

/** Which rooms this page shows and links to the others, when the scan has more than one page of them. */
function roomsPager(base: string, shown: ScanPageRooms, total: number): SafeHtml | string {
  if (shown.pages <= 1) return '';
  const first = (shown.page - 1) * ROOMS_PER_PAGE + 1;
  const last = first + shown.rooms.length - 1;
  const link = (page: number) => (page === 1 ? base : `${base}?rooms=${page}`);
  return html`<nav class="pager" aria-label="Pages of rooms">
<span>${
    shown.page > 1
      ? html`<a href="${link(shown.page - 1)}" rel="prev">← Rooms ${first - ROOMS_PER_PAGE}–${first - 1}</a>`
      : ''
  }</span>
<span class="muted small">Rooms ${first}–${last} of ${total} (page ${shown.page} of ${shown.pages})</span>
<span>${
    shown.page < shown.pages
      ? html`<a href="${link(shown.page + 1)}" rel="next">Rooms ${last + 1}–${Math.min(
          last + ROOMS_PER_PAGE,
          total,
        )} →</a>`
      : ''
  }</span>
</nav>`;
}

/** One plan per room, drawn on the server; a room that was not read shows its JSON instead. */
function plansSection(input: ScanPageInput): SafeHtml | string {
  const { figures, units, unrecognized, shown } = input;
  if (figures.rooms.length === 0) return '';
  return html`<section class="plans" aria-labelledby="plans-heading">
<h2 id="plans-heading">Floor plans</h2>
<div class="plan-grid">${shown.rooms.map(
    (room) => html`<figure class="card plan">
<figcaption><strong>${room.index + 1}. ${room.name}</strong>${
      room.measurement.floorArea
        ? html` <span class="muted small">${formatArea(room.measurement.floorArea.value, units)}</span>`
        : ''
    }</figcaption>
${
  room.measurement.recognized
    ? html`${floorPlanSvg(room.measurement.plan, units, room.name)}${simplifiedNote(room.measurement.plan)}`
    : html`<p class="muted small">No measurements recognized in this room.</p>${
        unrecognized.has(room.index)
          ? html`<details><summary>Show its
          JSON</summary><pre class="room-json">${unrecognized.get(room.index)!}</pre></details>`
          : ''
      }`
}
</figure>`,
  )}</div>
</section>`;
}

/** Said under a plan drawn simplified: the figures above still count every surface. */
function simplifiedNote(plan: Plan | null): SafeHtml | string {
  const cut = plan?.simplified;
  if (!cut) return '';
  const parts = [
    cut.walls > plan.walls.length ? `the ${plan.walls.length} longest of its ${cut.walls} walls` : '',
    cut.openings > plan.openings.length
      ? `the ${plan.openings.length} widest of its ${cut.openings} doors, windows and openings`
      : '',
    cut.corners > plan.outline.length ? `its floor outline with ${plan.outline.length} of ${cut.corners} corners` : '',
  ].filter(Boolean);
  return html`<p class="muted small plan-simplified">Plan simplified: this room has more surfaces than a plan can show,
  so it draws ${parts.join(', ')}. The measurements count every surface.</p>`;
}
