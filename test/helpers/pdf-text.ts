import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A PDF read back by a real PDF reader (poppler's pdftotext; `.ci/run` installs it where it is missing). */
function withFile<T>(pdf: Uint8Array, read: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-pdf-'));
  const file = path.join(dir, 'document.pdf');
  try {
    fs.writeFileSync(file, pdf);
    return read(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page, in drawing order (`-raw`), whitespace runs folded to one space. */
export function pdfPages(pdf: Uint8Array): string[] {
  return withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .slice(0, -1)
      .map((page) => page.replace(/\s+/g, ' ').trim()),
  );
}

export function pdfText(pdf: Uint8Array): string {
  return pdfPages(pdf).join(' ');
}

/** `pdfinfo`'s fields: Title, Author, Pages, Page size, CreationDate, JavaScript… */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  return withFile(pdf, (file) => {
    const out = execFileSync('pdfinfo', ['-isodates', file], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .split('\n')
        .filter((l) => l.includes(':'))
        .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
    );
  });
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word with its box in points, and each page's size (`pdftotext -bbox`). */
export function pdfWords(pdf: Uint8Array): { pages: Array<{ width: number; height: number }>; words: Word[] } {
  return withFile(pdf, (file) => {
    const xml = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const pages: Array<{ width: number; height: number }> = [];
    const words: Word[] = [];
    for (const m of xml.matchAll(
      /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    )) {
      if (m[1]) pages.push({ width: Number(m[1]), height: Number(m[2]) });
      else
        words.push({
          page: pages.length,
          text: m[7]!,
          xMin: Number(m[3]),
          yMin: Number(m[4]),
          xMax: Number(m[5]),
          yMax: Number(m[6]),
        });
    }
    return { pages, words };
  });
}
