import { recordAuditAlone } from '../audit/record-audit.js';
import type { Readable } from 'node:stream';
import { sql, type SqlBool } from 'kysely';
import { csvStream } from '../csv-cells.js';
import { csvCellOf, sheetTime, xlsxStream, type SheetCell } from '../xlsx-sheet.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { zonedTimeFormatter } from '../zoned-time.js';
import {
  afterCursor,
  filterCondition,
  resolveLeadFilters,
  type LeadCursor,
  type LeadFilterInput,
  type LeadFilters,
} from './lead-filters.js';
import { leadPageQuery, type LeadPageRow } from './inbox-query.js';

/** Rows read per query: the export's memory is one page, whatever the number of leads. */
const EXPORT_PAGE = 500;
/**
 * At most this many extra-field columns. Past it (only a workspace whose forms keep changing their field names gets
 * there) the remaining extra fields of a row go, as JSON, into one last column, MORE_EXTRA.
 */
export const MAX_EXTRA_COLUMNS = 500;
export const MORE_EXTRA = 'more_extra';

type ExportRow = LeadPageRow & { internal_notes: number | string | bigint };
type Cell = (row: ExportRow, time: (iso: string) => SheetCell) => SheetCell;

const COLUMNS: Array<[header: string, cell: Cell]> = [
  ['id', (r) => r.id],
  ['received_at', (r, time) => time(r.received_at)],
  ['name', (r) => r.name],
  ['email', (r) => r.email],
  ['phone', (r) => r.phone],
  ['address', (r) => r.address],
  ['notes', (r) => r.notes],
  ['stage', (r) => r.stage_name ?? r.stage],
  ['source', (r) => r.source_name],
  ['assignee', (r) => r.assignee_email ?? null],
  ['follow_up_on', (r) => (r.follow_up_on ? sheetTime(r.follow_up_on) : null)],
  ['possible_duplicate', (r) => (Number(r.possible_duplicate) ? 'yes' : '')],
  ['internal_notes_count', (r) => Number(r.internal_notes)],
  ['bot_check', (r) => r.bot_check],
  ['client_ip', (r) => r.client_ip],
  ['user_agent', (r) => r.user_agent],
  ['origin', (r) => r.origin],
  ['referer', (r) => r.referer],
  ['page_url', (r) => r.page_url ?? null],
  // The marketing parameters of page_url (marketing-source.ts), under their own names.
  ['utm_source', (r) => r.utm_source ?? null],
  ['utm_medium', (r) => r.utm_medium ?? null],
  ['utm_campaign', (r) => r.utm_campaign ?? null],
  ['gclid', (r) => r.gclid ?? null],
  ['fbclid', (r) => r.fbclid ?? null],
];

/** The fixed columns; the extra fields' columns follow them, one per key. */
export const EXPORT_HEADERS = COLUMNS.map(([header]) => header);

/** Rows at or before `top` in page order: the second pass lists the leads the first pass saw, not later arrivals. */
function atOrBefore(top: LeadCursor) {
  return sql<SqlBool>`(leads.received_at, leads.id) <= (${top.receivedAt}, ${top.id})`;
}

/**
 * The first pass: the extra fields' keys over the filtered set, in first-seen order (newest lead first, each
 * lead's keys in its own order), reading only `extra` a page at a time. Memory is the keys (at most
 * MAX_EXTRA_COLUMNS), not the leads. Also returns the newest row, where the second pass starts.
 */
async function extraKeys(
  ctx: DomainContext,
  filters: LeadFilters,
): Promise<{ keys: string[]; overflow: boolean; top?: LeadCursor }> {
  const keys = new Set<string>();
  let overflow = false;
  let top: LeadCursor | undefined;
  let cursor: LeadCursor | undefined;
  for (;;) {
    const page = await ctx.store.db
      .selectFrom('leads')
      .select(['leads.id', 'leads.received_at', 'leads.extra'])
      .where((eb) => filterCondition(eb, ctx.store.ops, filters))
      .$if(cursor !== undefined, (q) => q.where(afterCursor(cursor!)))
      .orderBy('leads.received_at', 'desc')
      .orderBy('leads.id', 'desc')
      .limit(EXPORT_PAGE)
      .execute();
    for (const row of page) {
      top ??= { receivedAt: row.received_at, id: row.id };
      for (const key of Object.keys(JSON.parse(row.extra) as Record<string, unknown>)) {
        if (keys.has(key)) continue;
        if (keys.size < MAX_EXTRA_COLUMNS) keys.add(key);
        else overflow = true;
      }
    }
    const last = page.at(-1);
    if (page.length < EXPORT_PAGE || !last) return { keys: [...keys], overflow, ...(top ? { top } : {}) };
    cursor = { receivedAt: last.received_at, id: last.id };
  }
}

/** An extra field's header: its key, unless that is already a fixed column's name (then `extra.` + key). */
function extraHeader(key: string): string {
  const taken = EXPORT_HEADERS.includes(key.toLowerCase()) || key.toLowerCase() === MORE_EXTRA;
  return taken ? `extra.${key}` : key;
}

/** Column widths of the .xlsx (characters), by header; an extra field's column gets the default. */
const XLSX_WIDTHS: Record<string, number> = {
  id: 30,
  received_at: 20,
  name: 24,
  email: 28,
  phone: 18,
  address: 30,
  notes: 40,
  user_agent: 30,
  page_url: 30,
};

export type ExportFormat = 'csv' | 'xlsx';

/**
 * Exactly the filtered set (every page), as a CSV stream (docs/admin-app.md, "The CSV export"): RFC 4180 with CRLF,
 * UTF-8 with a BOM, one column per field, then one per extra field (the union of the keys in the export, first-seen
 * order), times in the workspace's time zone with their offset, every cell quoted and text guarded against formulas
 * (the one cell rule of csv-cells.ts, headers included, since keys come from the public form), so a spreadsheet shows
 * text instead of running it.
 */
export function exportLeadsCsv(args: WorkspaceVerbArgs<LeadFilterInput>): Promise<Readable> {
  return exportLeads(args, 'csv');
}

/**
 * The same rows and columns as an Excel file (docs/admin-app.md, "The Excel export"), every cell typed (xlsx-sheet.ts):
 * text as text with no guard, the note count a number, received_at a date and time in the workspace's time zone,
 * follow_up_on a date.
 */
export function exportLeadsXlsx(args: WorkspaceVerbArgs<LeadFilterInput>): Promise<Readable> {
  return exportLeads(args, 'xlsx');
}

/**
 * Two passes keep memory bounded: the first reads only the extra fields' keys (the header must name them before the
 * first row), the second streams the rows, both by keyset paging, newest first. The second stops at the newest lead
 * the first saw, so a lead arriving during the download is not in it (and cannot bring a key the header lacks).
 * Filters are resolved before the stream starts, so a bad filter is an error the caller can answer with, not a
 * half-written file.
 */
async function exportLeads(
  { ctx, input }: WorkspaceVerbArgs<LeadFilterInput>,
  format: ExportFormat,
): Promise<Readable> {
  const filters = await resolveLeadFilters(ctx, input);
  // Recorded when the download starts (the rows stream after): who took which pipeline's leads, whether filtered, as
  // Excel.
  await recordAuditAlone(ctx, {
    action: 'export.downloaded',
    workspaceId: filters.workspaceId,
    targetIds: input.pipelineId ? [input.pipelineId] : [],
    details: {
      filtered: Object.entries(input).some(
        ([k, v]) => k !== 'workspaceId' && k !== 'pipelineId' && v !== undefined && v !== '',
      ),
      ...(format === 'xlsx' ? { excel: true } : {}),
    },
  });
  const { timeZone } = await getWorkspaceSettings({ ctx, input: { workspaceId: filters.workspaceId } });
  const zoned = zonedTimeFormatter(timeZone);
  // `2026-11-25 08:03:00-05:00`: the CSV writes all of it, the .xlsx the wall-clock part as a date and time.
  const time = (iso: string) => {
    const text = zoned(iso);
    return sheetTime(text.slice(0, 19), text);
  };
  const { keys, overflow, top } = await extraKeys(ctx, filters);
  const known = new Set(keys);
  const headers = [...EXPORT_HEADERS, ...keys.map(extraHeader), ...(overflow ? [MORE_EXTRA] : [])];

  function record(row: ExportRow): SheetCell[] {
    const extra = JSON.parse(row.extra) as Record<string, unknown>;
    const text = (value: unknown) =>
      value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    const cells: SheetCell[] = [...COLUMNS.map(([, cell]) => cell(row, time)), ...keys.map((key) => text(extra[key]))];
    if (overflow) {
      const rest = Object.fromEntries(Object.entries(extra).filter(([key]) => !known.has(key)));
      cells.push(Object.keys(rest).length > 0 ? JSON.stringify(rest) : '');
    }
    return cells;
  }

  async function* rows() {
    yield headers;
    if (!top) return;
    let cursor: LeadCursor | undefined;
    for (;;) {
      const page = (await leadPageQuery(ctx, filters, cursor, EXPORT_PAGE)
        .select((eb) =>
          eb
            .selectFrom('lead_notes')
            .select((n) => n.fn.countAll().as('n'))
            .whereRef('lead_notes.lead_id', '=', 'leads.id')
            .as('internal_notes'),
        )
        .where(atOrBefore(top))
        .execute()) as ExportRow[];
      for (const row of page) yield record(row);
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE || !last) return;
      cursor = { receivedAt: last.received_at, id: last.id };
    }
  }
  if (format === 'xlsx')
    return xlsxStream(
      'Leads',
      rows(),
      headers.map((h) => XLSX_WIDTHS[h] ?? 16),
    );
  return csvStream(csvRows(rows()));
}

async function* csvRows(rows: AsyncIterable<SheetCell[]>) {
  for await (const row of rows) yield row.map(csvCellOf);
}
