import { PassThrough, type Readable } from 'node:stream';
// exceljs is loaded when a file is written, not with every process that may write one (the CLI starts far faster).
import type ExcelJS from 'exceljs';
import type { CsvCell, CsvNumber } from './csv-cells.js';

/**
 * The Excel (.xlsx) files the product writes beside its CSVs (leads export, a scan's measurements): one sheet, a
 * bold header row kept in view, every cell typed (docs/admin-app.md, "The Excel export"). Text is an inline string,
 * so nothing is a formula and nothing needs the CSV's apostrophe guard (a phone `+44…` reads `+44…`); numbers are
 * numbers, shown with the digits the CSV writes; dates and times are real dates. Streamed row by row (exceljs's
 * streaming writer, no shared-strings table), so 100,000 leads take the memory of a page of them.
 */

/**
 * A date, or a date and time, as the workspace reads it (a spreadsheet has no time zones), and the CSV's text of it.
 */
export interface SheetTime {
  /** `2026-11-25` or `2026-11-25 08:03:00`: the wall-clock value the cell shows. */
  readonly wallClock: string;
  /** What the CSV writes for it (e.g. with its offset, `2026-11-25 08:03:00-05:00`). */
  readonly text: string;
}

/** A cell of a file written both as CSV and as .xlsx: a CSV cell, or a date/time. */
export type SheetCell = CsvCell | SheetTime;

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/** A date/time cell; `wallClock` must be `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (anything else is written as text). */
export function sheetTime(wallClock: string, text: string = wallClock): SheetTime {
  return { wallClock, text };
}

function isTime(cell: SheetCell): cell is SheetTime {
  return typeof cell === 'object' && cell !== null && 'wallClock' in cell;
}

/** The cell as the CSV writes it (a date/time as its text). */
export function csvCellOf(cell: SheetCell): CsvCell {
  return isTime(cell) ? cell.text : cell;
}

/**
 * Text as an OOXML string: a carriage return (which XML would turn into a line feed) and the characters XML cannot
 * carry as `_xHHHH_`, and a `_xHHHH_` already in the text escaped, so a spreadsheet reads back what was typed.
 */
function ooxmlText(value: string): string {
  return value.replace(/_x([0-9A-Fa-f]{4})_/g, '_x005F_x$1_').replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000B\u000C\u000D\u000E-\u001F\uFFFE\uFFFF]/g,
    (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );
}

/** Rows written between two looks at the reader (a few tens of KB of sheet XML). */
const ROWS_BETWEEN_WAITS = 100;

type Written = { value: ExcelJS.CellValue; numFmt?: string };

function fractionFormat(digits: number): string {
  return digits > 0 ? `0.${'0'.repeat(digits)}` : '0';
}

/** A cell as exceljs takes it: text as an inline rich-text string (not a shared one, not a formula). */
function written(cell: SheetCell): Written | undefined {
  if (cell === null || cell === undefined || cell === '') return undefined;
  if (typeof cell === 'number') return Number.isFinite(cell) ? { value: cell } : text(String(cell));
  if (isTime(cell)) {
    const m = WALL_CLOCK.exec(cell.wallClock);
    if (!m) return text(cell.text);
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
    // Excel counts days from its epoch with no zone: the wall-clock time as if it were UTC is what the cell shows.
    const value = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
    return { value, numFmt: m[4] === undefined ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss' };
  }
  if (typeof cell === 'object') return numberCell(cell);
  return text(cell);
}

function numberCell(cell: CsvNumber): Written {
  const m = /^-?\d+(?:\.(\d+))?$/.exec(cell.csvNumber);
  if (!m) return text(cell.csvNumber);
  return { value: Number(cell.csvNumber), numFmt: fractionFormat(m[1]?.length ?? 0) };
}

function text(value: string): Written {
  return { value: { richText: [{ text: ooxmlText(value) }] } };
}

/** One sheet of a workbook: its name (at most 31 characters), its rows (the first is the header), column widths. */
export interface SheetSpec {
  readonly name: string;
  readonly rows: AsyncIterable<readonly SheetCell[]> | Iterable<readonly SheetCell[]>;
  readonly widths?: readonly number[];
}

/**
 * An .xlsx stream of one sheet from rows read a page at a time (the first row is the header). Rows are written as
 * the reader takes the file: the writer waits while the reader's side is full. A failed read destroys the stream
 * with the error, so the reader sees a broken download, not a short one.
 */
export function xlsxStream(
  sheetName: string,
  rows: AsyncIterable<readonly SheetCell[]> | Iterable<readonly SheetCell[]>,
  widths: readonly number[] = [],
): Readable {
  return xlsxBook([{ name: sheetName, rows, widths }]);
}

/**
 * An .xlsx stream of several sheets, written one after the other in their order (a sheet's rows are read only once
 * the sheet before it is written, so a later sheet may sum what an earlier one wrote), each as `xlsxStream` writes
 * its one.
 */
export function xlsxBook(sheets: readonly SheetSpec[]): Readable {
  const out = new PassThrough();
  // exceljs and its zip writer pass rows on without waiting for the reader, so the wait is here: every few rows, let
  // the written ones reach `out`, and while the reader has not taken them, write no more.
  const roomForMore = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    while (out.writableNeedDrain && !out.destroyed) {
      await new Promise<void>((resolve) => {
        out.once('drain', resolve);
        out.once('close', resolve);
      });
    }
  };
  void (async () => {
    const { default: excel } = await import('exceljs');
    const book = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    book.creator = 'Leadscan';
    for (const spec of sheets) {
      const sheet = book.addWorksheet(spec.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
      (spec.widths ?? []).forEach((width, i) => (sheet.getColumn(i + 1).width = width));
      let header = true;
      let count = 0;
      for await (const cells of spec.rows) {
        if (out.destroyed) return;
        const row = sheet.addRow([]);
        cells.forEach((cell, i) => {
          const w = written(cell);
          if (!w) return;
          const target = row.getCell(i + 1);
          target.value = w.value;
          if (w.numFmt) target.numFmt = w.numFmt;
          if (header) target.font = { bold: true };
        });
        header = false;
        row.commit();
        if (++count % ROWS_BETWEEN_WAITS === 0) await roomForMore();
      }
      sheet.commit();
    }
    await book.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
