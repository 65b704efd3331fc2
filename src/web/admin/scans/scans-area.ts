import { listQuotes } from '../../../domain/quotes/list-quotes.js';
import { scanQuotesCard } from '../quotes/quote-pages.js';
import { html } from '../../html.js';
import { regenerateUploadKey } from '../../../domain/keys/regenerate-upload-key.js';
import { showUploadKey } from '../../../domain/keys/show-upload-key.js';
import { uploadKeyStatus } from '../../../domain/keys/upload-key-status.js';
import { AppError } from '../../../domain/errors.js';
import { deleteScan } from '../../../domain/scans/delete-scan.js';
import { attachScan } from '../../../domain/scans/attach-scan.js';
import { detachScan } from '../../../domain/scans/detach-scan.js';
import { getScan } from '../../../domain/scans/get-scan.js';
import { zonedDay } from '../../../domain/dates.js';
import type { ScanView } from '../../../domain/scans/list-scans.js';
import { listScans } from '../../../domain/scans/list-scans.js';
import { listLeads } from '../../../domain/leads/list-leads.js';
import { scanFigures } from '../../../domain/scans/measure-scan.js';
import { measurementHeaders, measurementRows } from '../../../domain/scans/measurement-table.js';
import { csvText } from '../../../domain/csv-cells.js';
import { xlsxStream } from '../../../domain/xlsx-sheet.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { readScanRaw, readScanRoom } from '../../../domain/scans/read-scan-bytes.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { sendAttachment, XLSX_CONTENT_TYPE } from '../attachment.js';
import { pageNumber } from '../pagers.js';
import { SCANS_PER_PAGE, scanPage, scansPage, type RoomRename } from './scans-pages.js';
import { renameRoom } from '../../../domain/scans/rename-room.js';
import { ROOMS_PER_PAGE, scanPageRooms, UNRECOGNIZED_SHOWN } from './scan-page-bounds.js';

/** The stored bytes as a download, exactly. */
function download(call: WorkspaceCall, bytes: Buffer, filename: string) {
  return sendAttachment(call.reply, { contentType: 'application/json', filename, body: bytes });
}

/** A room's JSON for a person to read: indented when it parses, as sent when not; at most 20 KB of it. */
function prettyJson(bytes: Buffer): string {
  const text = bytes.subarray(0, 20_000).toString('utf8');
  try {
    return JSON.stringify(JSON.parse(bytes.toString('utf8')), null, 2).slice(0, 20_000);
  } catch {
    return text;
  }
}

/** The scan of the URL, in the URL's workspace (another workspace's scan is "not found"). */
const scanOf = (call: WorkspaceCall, markOpened = false) =>
  getScan({
    ctx: call.ctx,
    input: { scanId: call.params.scanId ?? '', markOpened },
  });

const unitsOf = async (call: WorkspaceCall) =>
  (await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } })).units;

/** What a file name cannot hold on common systems, and control characters. */
// eslint-disable-next-line no-control-regex
const NOT_IN_FILE_NAMES = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * A measurements file is named after the job (docs/admin-app.md, "A scan's page"): the lead's name, else its email
 * or phone, and the scan's day in the workspace's time zone (`Ada Lovelace measurements 2026-11-27`); a scan not
 * attached to a lead yet is `Scan measurements 2026-11-27`. Never the scan's id, which says nothing to a person.
 */
export function measurementsFileName(scan: ScanView, timeZone: string): string {
  const who = scan.lead ? (scan.lead.name ?? scan.lead.email ?? scan.lead.phone ?? '').trim() : '';
  const named = who.replace(NOT_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${named || 'Scan'} measurements ${zonedDay(scan.receivedAt, timeZone)}`;
}

/** Download measurements (CSV) and (Excel): the page's numbers, one row a room, in the workspace's units. */
async function measurementsFile(call: WorkspaceCall, format: 'csv' | 'xlsx') {
  const workspaceId = call.workspace.workspaceId;
  const scan = await scanOf(call);
  const [figures, settings] = await Promise.all([
    scanFigures({ ctx: call.ctx, input: { workspaceId, scanId: scan.id } }),
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
  ]);
  const { units } = settings;
  const headers = measurementHeaders(units);
  const rows = [headers, ...measurementRows(figures, units)];
  const filename = `${measurementsFileName(scan, settings.timeZone)}.${format}`;
  if (format === 'csv')
    return sendAttachment(call.reply, { contentType: 'text/csv; charset=utf-8', filename, body: csvText(rows) });
  const widths = headers.map((h) => (h === 'note' ? 50 : h === 'name' ? 24 : 14));
  return sendAttachment(call.reply, {
    contentType: XLSX_CONTENT_TYPE,
    filename,
    body: xlsxStream('Measurements', rows, widths),
  });
}

/** The room of a rename's URL: its number from 1 (a number that is none is a room that does not exist). */
function roomNumberOf(call: WorkspaceCall): number {
  const room = call.params.room ?? '';
  if (!/^[1-9]\d{0,3}$/.test(room)) throw new AppError('room_not_found', `Room ${room} does not exist`);
  return Number(room);
}

/** A scan's page; with `rename`, a refused Rename shown again beside its room with what was typed. */
async function showScanPage(call: WorkspaceCall, status: number, rename?: RoomRename) {
  const scan = await scanOf(call, true);
  const find = (call.query.find ?? '').trim().slice(0, 200);
  const [units, found, figures] = await Promise.all([
    unitsOf(call),
    find ? listLeads({ ctx: call.ctx, input: { search: find, limit: 10 } }) : null,
    // Kept figures; a scan the background sweep has not reached yet is measured now, once.
    scanFigures({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId, scanId: scan.id } }),
  ]);
  // Bounded whatever the upload holds: one page of rooms, plans within bounds (scan-page-bounds.ts).
  const shown = scanPageRooms(figures, rename ? Math.ceil(rename.room / ROOMS_PER_PAGE) : pageNumber(call.query.rooms));
  const unrecognized = new Map<number, string>();
  for (const room of shown.rooms.filter((r) => !r.measurement.recognized).slice(0, UNRECOGNIZED_SHOWN)) {
    const bytes = await readScanRoom({
      ctx: call.ctx,
      input: { scanId: scan.id, index: room.index },
    });
    unrecognized.set(room.index, prettyJson(bytes));
  }
  const workspaceId = call.workspace.workspaceId;
  const [quotes, settings] = await Promise.all([
    listQuotes({ ctx: call.ctx, input: { workspaceId, scanId: scan.id } }),
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
  ]);
  return call.render(status, {
    title: 'Scan',
    area: 'scans',
    body: html`${scanPage(call, {
      scan,
      units,
      figures,
      unrecognized,
      find,
      found: found?.leads ?? null,
      shown,
      rename,
    })}${scanQuotesCard(call, quotes, settings)}`,
  });
}

/** Scans (docs/admin-app.md). */
export const scansArea: AdminArea = {
  nav: { area: 'scans', label: 'Scans', path: 'scans', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/scans',
      access: 'member',
      handler: async (call) => {
        const page = pageNumber(call.query.page);
        // Scans still waiting for a job first; `?scans=all` lists every one.
        const filter = call.query.scans === 'all' ? 'all' : 'unattached';
        const [{ uploadKey }, status, scans, units] = await Promise.all([
          showUploadKey({
            ctx: call.ctx,
            input: { ...(call.query.show === 'key' ? { audit: 'key.shown' as const } : {}) },
          }),
          uploadKeyStatus({ ctx: call.ctx, input: {} }),
          // One more than a page tells whether an older page exists.
          listScans({
            ctx: call.ctx,
            input: { filter, limit: SCANS_PER_PAGE + 1, offset: (page - 1) * SCANS_PER_PAGE },
          }),
          unitsOf(call),
        ]);
        return call.render(200, {
          title: 'Scans',
          area: 'scans',
          body: scansPage(call, {
            uploadKey,
            shown: call.query.show === 'key',
            lastConnectedAt: status.lastConnectedAt,
            createdAt: status.createdAt,
            scans: scans.slice(0, SCANS_PER_PAGE),
            page,
            hasOlder: scans.length > SCANS_PER_PAGE,
            filter,
            units,
          }),
        });
      },
    },
    {
      // Copy: the key as text, fetched only when someone presses Copy (members may copy it too). A POST with the
      // form's CSRF token, because it writes the audit log: a link from another site must not (docs/security.md).
      method: 'POST',
      path: '/w/:workspaceId/scans/key',
      access: 'member',
      handler: async (call) => {
        const { uploadKey } = await showUploadKey({
          ctx: call.ctx,
          input: { audit: 'key.copied' },
        });
        return call.reply.code(200).type('text/plain; charset=utf-8').send(uploadKey);
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/scans/key/regenerate',
      access: 'owner',
      handler: async (call) => {
        await regenerateUploadKey({ ctx: call.ctx, input: {} });
        return call.redirect(`${workspacePath(call.workspace.workspaceId, 'scans')}?show=key`, 'key-regenerated');
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/scans/:scanId',
      access: 'member',
      handler: (call) => showScanPage(call, 200),
    },
    {
      // Rename (docs/admin-app.md, "Room names"): ROOM is the room's number from 1, as the page shows it.
      method: 'POST',
      path: '/w/:workspaceId/scans/:scanId/rooms/:room/rename',
      access: 'member',
      handler: async (call) => {
        const scanId = call.params.scanId ?? '';
        const room = roomNumberOf(call);
        await renameRoom({ ctx: call.ctx, input: { scanId, room, name: call.body.name ?? '' } });
        const page = Math.ceil(room / ROOMS_PER_PAGE);
        return call.redirect(
          `${workspacePath(call.workspace.workspaceId, `scans/${scanId}`)}${page > 1 ? `?rooms=${page}` : ''}`,
          'room-renamed',
        );
      },
      form: {
        field: 'name',
        only: ['invalid_fields'],
        rerender: (call, { status, errors }) =>
          showScanPage(call, status, {
            room: roomNumberOf(call),
            value: call.body.name ?? '',
            error: errors.name ?? '',
          }),
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/scans/:scanId/attach',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const scanId = call.params.scanId ?? '';
        await attachScan({ ctx: call.ctx, input: { scanId, leadId: call.body.leadId ?? '' } });
        return call.redirect(workspacePath(workspaceId, `scans/${scanId}`), 'scan-attached');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/scans/:scanId/detach',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const scanId = call.params.scanId ?? '';
        await detachScan({ ctx: call.ctx, input: { scanId } });
        return call.redirect(workspacePath(workspaceId, `scans/${scanId}`), 'scan-detached');
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/scans/:scanId/body',
      access: 'member',
      handler: async (call) => {
        const scan = await scanOf(call);
        const bytes = await readScanRaw({
          ctx: call.ctx,
          input: { scanId: scan.id },
        });
        return download(call, bytes, `${scan.id}.json`);
      },
    },
    {
      // The same numbers as the page, one row a room, in the workspace's units.
      method: 'GET',
      path: '/w/:workspaceId/scans/:scanId/measurements.csv',
      access: 'member',
      handler: (call) => measurementsFile(call, 'csv'),
    },
    {
      // The same rows as an Excel file: the figures as numbers with the page's digits, names as text.
      method: 'GET',
      path: '/w/:workspaceId/scans/:scanId/measurements.xlsx',
      access: 'member',
      handler: (call) => measurementsFile(call, 'xlsx'),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/scans/:scanId/rooms/:index',
      access: 'member',
      handler: async (call) => {
        const scan = await scanOf(call);
        const index = call.params.index ?? '';
        if (!/^\d{1,4}$/.test(index)) throw new AppError('room_not_found', `Room ${index} does not exist`);
        const bytes = await readScanRoom({
          ctx: call.ctx,
          input: { scanId: scan.id, index: Number(index) },
        });
        return download(call, bytes, `${scan.id}-room-${Number(index) + 1}.json`);
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/scans/:scanId/delete',
      access: 'owner',
      handler: async (call) => {
        await deleteScan({
          ctx: call.ctx,
          input: { scanId: call.params.scanId ?? '' },
        });
        return call.redirect(workspacePath(call.workspace.workspaceId, 'scans'), 'scan-deleted');
      },
    },
  ],
};
