import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * LibreOffice Calc, headless, to read an .xlsx the way a person's spreadsheet does (Debian: libreoffice-calc-nogui).
 * In CI (CI=true, which .ci/run sets after installing it) a missing soffice fails the test file; elsewhere the file
 * is skipped and says so loudly.
 */
export function libreOffice(): { soffice: string | undefined; skipReason: string | undefined } {
  let found: string | undefined;
  try {
    found =
      execFileSync('sh', ['-c', 'command -v soffice || command -v libreoffice'], { encoding: 'utf8' })
        .trim()
        .split('\n')[0] || undefined;
  } catch {
    found = undefined;
  }
  if (found) return { soffice: found, skipReason: undefined };
  const reason = 'LibreOffice (soffice) is not installed (apt-get install libreoffice-calc-nogui); .ci/run installs it';
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}: the Excel export tests must run in CI`);
  process.stderr.write(`\n[leadscan] EXCEL TEST SKIPPED: ${reason}.\n\n`);
  return { soffice: undefined, skipReason: reason };
}

/** One cell as Calc read it: its text as shown, and whether Calc holds it as text (else a number or a date). */
export interface CalcCell {
  shown: string;
  text: boolean;
}

/**
 * A sheet of an .xlsx (the first unless told; `sheet` counts from 1) as Calc reads it, by converting it to CSV with text cells quoted and the rest not
 * (so the quotes tell text from numbers and dates) and cells as shown (a date in its format). Each conversion has a
 * profile of its own, so conversions running at once (other test files) do not wait on one another's lock.
 */
export async function readWithCalc(soffice: string, xlsx: Buffer, sheet = 1): Promise<CalcCell[][]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-calc-'));
  try {
    const file = path.join(dir, 'book.xlsx');
    fs.writeFileSync(file, xlsx);
    // Filter options: comma, double quote, UTF-8 (76), from row 1, no column types, language default,
    // quote all text cells, detect special numbers, save cell contents as shown, no formulas, spaces kept, the sheet.
    await promisify(execFile)(
      soffice,
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--convert-to',
        `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,true,true,true,false,false,${sheet}`,
        '--outdir',
        dir,
        file,
      ],
      { timeout: 120_000 },
    );
    // One sheet asked by number is written as book-<its name>.csv.
    const written = fs.readdirSync(dir).find((name) => name.endsWith('.csv'))!;
    const csv = fs.readFileSync(path.join(dir, written), 'utf8');
    return parseQuoted(csv.replace(/^\uFEFF/, ''));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 4180 fields with whether each was quoted (csv-parse cannot say). */
function parseQuoted(csv: string): CalcCell[][] {
  const rows: CalcCell[][] = [];
  let row: CalcCell[] = [];
  let i = 0;
  const n = csv.length;
  for (;;) {
    let shown = '';
    let text = false;
    if (csv[i] === '"') {
      text = true;
      i++;
      for (;;) {
        const q = csv.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quote in Calc CSV');
        shown += csv.slice(i, q);
        if (csv[q + 1] === '"') {
          shown += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      let end = i;
      while (end < n && csv[end] !== ',' && csv[end] !== '\n' && csv[end] !== '\r') end++;
      shown = csv.slice(i, end);
      i = end;
    }
    row.push({ shown, text });
    if (csv[i] === ',') {
      i++;
      continue;
    }
    rows.push(row);
    row = [];
    if (csv[i] === '\r') i++;
    if (csv[i] === '\n') i++;
    if (i >= n) return rows;
  }
}
