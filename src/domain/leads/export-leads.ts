import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { VerbArgs } from '../context.js';
import { resolveLeadFilters, type LeadFilterInput } from './lead-filters.js';
import { leadPageQuery, type LeadPageRow } from './lead-page.js';

/** Rows read per query: the export's memory is one page, whatever the number of leads. */
const EXPORT_PAGE = 500;

const COLUMNS: Array<[header: string, cell: (row: LeadPageRow) => string | null]> = [
  ['id', (r) => r.id],
  ['received_at', (r) => r.received_at],
  ['name', (r) => r.name],
  ['email', (r) => r.email],
  ['phone', (r) => r.phone],
  ['address', (r) => r.address],
  ['notes', (r) => r.notes],
  ['stage', (r) => r.stage_name ?? r.stage],
  ['source', (r) => r.source_name],
  ['bot_check', (r) => r.bot_check],
  ['client_ip', (r) => r.client_ip],
  ['user_agent', (r) => r.user_agent],
  ['origin', (r) => r.origin],
  ['referer', (r) => r.referer],
  ['extra', (r) => r.extra],
];

export const EXPORT_HEADERS = COLUMNS.map(([header]) => header);

/**
 * Spreadsheet formula injection: a cell a spreadsheet would run as a formula gets a leading `'`. That is a cell
 * that begins with =, +, -, @, tab or CR, and also any part of it after a `;` or `,` that begins with =, +, - or @:
 * a spreadsheet in a comma-decimal locale splits on `;`, and one that ignores quotes splits on `,`, so such a
 * part would begin a cell of its own there. Every cell is also quoted (see `exportLeadsCsv`).
 */
export function defuseFormulas(value: string): string {
  const inner = value.replace(/([;,])(\s*)([=+\-@])/g, "$1$2'$3");
  return /^[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
}

/**
 * Exactly the filtered set (every page), as a CSV stream (docs/admin-app.md): RFC 4180 with CRLF, UTF-8 with a BOM,
 * one column per field plus the extra fields as JSON text, every cell quoted and formulas defused (defuseFormulas),
 * so a spreadsheet shows text instead of running it.
 *
 * Filters are resolved before the stream starts, so a bad filter is an error the caller can answer with, not a
 * half-written file. The rows are read by keyset paging, newest first.
 */
export async function exportLeadsCsv({ ctx, input }: VerbArgs<LeadFilterInput>): Promise<Readable> {
  const filters = await resolveLeadFilters(ctx, input);
  async function* rows() {
    let cursor: { receivedAt: string; id: string } | undefined;
    for (;;) {
      const page = await leadPageQuery(ctx, filters, cursor, EXPORT_PAGE).execute();
      for (const row of page) yield COLUMNS.map(([, cell]) => defuseFormulas(cell(row) ?? ''));
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE || !last) return;
      cursor = { receivedAt: last.received_at, id: last.id };
    }
  }
  // Every non-empty cell quoted: a `;` or `,` inside a value never splits it, whichever separator a spreadsheet picks.
  const csv = stringify({ bom: true, header: true, columns: EXPORT_HEADERS, record_delimiter: 'windows', quoted: true });
  // A failed page destroys the CSV stream with the error, so the reader sees a broken download, not a short one.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}
