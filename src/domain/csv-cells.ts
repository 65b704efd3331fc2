import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/**
 * The one cell rule for every CSV the product writes (leads export, a scan's measurements, and any later one such as
 * a price list): RFC 4180 with CRLF, UTF-8 with a BOM, every cell quoted, text guarded against spreadsheet formulas,
 * numbers written as numbers (docs/security.md, "CSV files").
 */

/** A number for a spreadsheet, kept with the digits it should show (e.g. "13.0"). Made by `csvNumber`. */
export interface CsvNumber {
  readonly csvNumber: string;
}

/** What a CSV cell may hold: text (guarded), a number (written as is), or nothing (an empty cell). */
export type CsvCell = string | number | CsvNumber | null | undefined;

/** A BOM, CRLF, every cell quoted (a `;` or `,` inside a value never splits it, whichever separator is picked). */
const CSV_OPTIONS = { bom: true, record_delimiter: 'windows', quoted: true } as const;

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A number cell: `value` with `fractionDigits` digits after the point (as `toFixed`), or as JavaScript writes it. */
export function csvNumber(value: number, fractionDigits?: number): CsvNumber {
  return { csvNumber: fractionDigits === undefined ? String(value) : value.toFixed(fractionDigits) };
}

/**
 * Spreadsheet formula injection: a text cell a spreadsheet would run as a formula gets a leading `'`. That is a cell
 * that begins with =, +, -, @, tab or CR, and also any part of it after a `;` or `,` that begins with =, +, - or @:
 * a spreadsheet in a comma-decimal locale splits on `;`, and one that ignores quotes splits on `,`, so such a
 * part would begin a cell of its own there. Apostrophes already in front of such a character count as part of it
 * (`'=x` is written `''=x`), so `unguardText` takes off exactly what this added and nothing a person typed.
 */
export function guardText(value: string): string {
  const inner = value.replace(/([;,])(\s*)('*[=+\-@])/g, "$1$2'$3");
  return /^'*[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
}

/** The inverse of `guardText`: a CSV the product wrote, read back (the price list's import), is the text as typed. */
export function unguardText(value: string): string {
  const inner = value.replace(/([;,])(\s*)'('*[=+\-@])/g, '$1$2$3');
  return /^'('*[=+\-@\t\r])/.test(inner) ? inner.slice(1) : inner;
}

/**
 * A cell as written. Numbers are written as they are (a negative one keeps its `-`): only plain digits count as a
 * number, so anything else (NaN, Infinity, 1e21, a string) is text and guarded like text.
 */
export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number')
    return Number.isFinite(cell) && NUMBER.test(String(cell)) ? String(cell) : guardText(String(cell));
  if (typeof cell === 'object') return NUMBER.test(cell.csvNumber) ? cell.csvNumber : guardText(cell.csvNumber);
  return guardText(cell);
}

/** A row as written. */
export function csvRow(cells: readonly CsvCell[]): string[] {
  return cells.map(csvCell);
}

/** A cell as plain text for a terminal or JSON (no guard: nothing there runs formulas). */
export function cellText(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  return typeof cell === 'object' ? cell.csvNumber : String(cell);
}

/** A whole CSV file from its rows (the first one the header), every cell through the rule. */
export function csvText(rows: ReadonlyArray<readonly CsvCell[]>): string {
  return stringifySync(rows.map(csvRow), CSV_OPTIONS);
}

/**
 * A CSV stream from rows read a page at a time, every cell through the rule. A failed read destroys the stream with
 * the error, so the reader sees a broken download, not a short one.
 */
export function csvStream(rows: AsyncIterable<readonly CsvCell[]>): Readable {
  const csv = stringify(CSV_OPTIONS);
  pipeline(Readable.from(mapRows(rows)), csv, () => {});
  return csv;
}

async function* mapRows(rows: AsyncIterable<readonly CsvCell[]>): AsyncGenerator<string[]> {
  for await (const row of rows) yield csvRow(row);
}
