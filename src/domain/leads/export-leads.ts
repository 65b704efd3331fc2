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
 * Exactly the filtered set (every page), as a CSV stream (CONTRACT §12): RFC 4180 with CRLF, UTF-8 with a BOM,
 * one column per field plus the extra fields as JSON text. A cell beginning with =, +, -, @, tab or CR gets a
 * leading `'`, so a spreadsheet shows it as text instead of running it as a formula.
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
      for (const row of page) yield COLUMNS.map(([, cell]) => cell(row) ?? '');
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE || !last) return;
      cursor = { receivedAt: last.received_at, id: last.id };
    }
  }
  const csv = stringify({ bom: true, header: true, columns: EXPORT_HEADERS, record_delimiter: 'windows', escape_formulas: true });
  // A failed page destroys the CSV stream with the error, so the reader sees a broken download, not a short one.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}
