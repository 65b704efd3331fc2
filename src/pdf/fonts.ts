import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The fonts every PDF is set in (docs/documents.md, "The renderer"): DejaVu Sans and DejaVu Sans Bold from the
 * `dejavu-fonts-ttf` package (the Bitstream Vera licence: free to embed and redistribute). They cover Latin with its
 * accents (Ł, Ø, ß, ő), Greek and Cyrillic, among others; a character neither has (CJK, most emoji) is printed as the
 * replacement glyph �, so no text fails a render and the customer's page still shows it as typed. Read once per
 * thread; PDFKit embeds only the glyphs a document uses.
 */
export interface Fonts {
  /** Parsed once per thread and handed to PDFKit as they are: parsing a face costs more than laying out a page. */
  regular: fontkit.Font;
  bold: fontkit.Font;
  /** Code points both faces can draw. */
  covered: ReadonlySet<number>;
}

let loaded: Fonts | undefined;

export function fonts(): Fonts {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const regular = fontkit.create(fs.readFileSync(path.join(dir, 'DejaVuSans.ttf'))) as fontkit.Font;
  const bold = fontkit.create(fs.readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf'))) as fontkit.Font;
  const boldSet = new Set(bold.characterSet);
  const covered = new Set(regular.characterSet.filter((c) => boldSet.has(c)));
  loaded = { regular, bold, covered };
  return loaded;
}

/**
 * Bidirectional overrides and embeddings, isolates and marks, zero-width and other format characters: invisible on
 * paper, and a right-to-left override would make a PDF reader show a line's characters backwards (a name that reads
 * as another). Removed before layout; the text is otherwise printed as typed, in logical order.
 */
const FORMAT_CHARACTERS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad]/g;
// Control characters other than line breaks and tabs (a tab becomes a space).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text as the fonts can print it: format and control characters removed, what they lack replaced by �. */
export function printable(text: string, covered: ReadonlySet<number>): string {
  const plain = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(FORMAT_CHARACTERS, '')
    .replace(CONTROLS, '')
    .normalize('NFC');
  let out = '';
  for (const char of plain) {
    const code = char.codePointAt(0)!;
    out += char === '\n' || char === ' ' || covered.has(code) ? char : '\uFFFD';
  }
  return out;
}
