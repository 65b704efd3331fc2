import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { paperFor, type DocumentModel } from '../../src/domain/document-model.js';
import { layoutDocument } from '../../src/pdf/layout.js';
import { renderPool } from '../../src/pdf/render-pool.js';
import { pdfInfo, pdfPages, pdfText, pdfWords } from '../helpers/pdf-text.js';
import { quoteModel } from './document-fixtures.js';

const sha = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the PDF layout (docs/documents.md, "The layout")', () => {
  it('prints the business, number, dates, customer, every line, each tax, the total, the texts and the footer', async () => {
    const model = quoteModel(30, { rooms: 4 });
    const pdf = await layoutDocument(model);
    const pages = pdfPages(pdf);
    const text = pages.join(' ');
    for (const value of [
      'Bright Floors Łódź',
      '12 Harbour Street Toronto, ON M5V 1A1',
      'GST/HST: 123456789 RT0001',
      'Q-0007 rev 2',
      'Valid until December 26, 2026',
      'Date November 26, 2026',
      'Prepared for Ada Lovelace 1 Analytical Engine Way Toronto, ON ada@example.com',
      'Kitchen and living room floors',
      'Subtotal $',
      'GST 5 %',
      'QST 9.975 %',
      'Note We start two weeks after you accept.',
      'Terms Payment within 14 days of completion.',
      'Floor plans',
      'Kitchen',
      'Lengths in metres.',
    ])
      expect(text).toContain(value);
    const lines = model.sections.flatMap((s) => s.lines);
    for (const line of lines)
      expect(text).toContain(
        fold(
          `${line.description} ${line.unit ? `${line.quantity} ${line.unit}` : line.quantity} ${line.unitPrice} ${line.amount}`,
        ),
      );
    for (const row of model.totals) expect(text).toContain(`${row.label} ${row.value}`);
    pages.forEach((page, i) => expect(page).toContain(`Q-0007 rev 2 · page ${i + 1} of ${pages.length}`));
    // Revision 1 has no "rev" in its footer.
    const first = pdfPages(await layoutDocument(quoteModel(3, { quote: { revision: 1 } })));
    expect(first[0]).toContain(`Q-0007 · page 1 of ${first.length}`);
    expect(first.join(' ')).not.toContain('rev 1');
  });

  it('writes fixed metadata: the title, the business as author, the send time as creation date', async () => {
    const info = pdfInfo(await layoutDocument(quoteModel(3)));
    expect(info.Title).toBe('Quote Q-0007 rev 2 — Bright Floors Łódź');
    expect(info.Author).toBe('Bright Floors Łódź');
    expect(info.CreationDate).toBe('2026-11-26T15:30:00Z');
    expect(info.JavaScript).toBe('no');
  });

  it('gives the same bytes for the same model, in this thread and through the pool', async () => {
    const model = quoteModel(30, { rooms: 4 });
    const a = await layoutDocument(model);
    await layoutDocument(quoteModel(12, { rooms: 2, quote: { title: 'Ελληνικά Кириллица 日本' } }));
    const b = await layoutDocument(JSON.parse(JSON.stringify(model)) as DocumentModel);
    expect(sha(b)).toBe(sha(a));
    const pool = renderPool({ threads: 1 });
    try {
      expect(sha(await pool.render(model))).toBe(sha(a));
    } finally {
      await pool.close();
    }
  });

  it('sets the paper: A4 or Letter from the model, the locale deciding unless Settings chose', async () => {
    expect(pdfInfo(await layoutDocument(quoteModel(3, { paper: 'A4' })))['Page size']).toContain('595.28 x 841.89');
    expect(pdfInfo(await layoutDocument(quoteModel(3, { paper: 'LETTER' })))['Page size']).toContain('612 x 792');
    expect(['en-US', 'en-CA', 'fr-CA', 'es-MX', 'en-PH', 'en'].map((l) => paperFor(l, null))).toEqual(
      Array(6).fill('LETTER'),
    );
    expect(['en-GB', 'de-DE', 'fr-FR', 'fr', 'pl-PL', 'ja-JP'].map((l) => paperFor(l, null))).toEqual(
      Array(6).fill('A4'),
    );
    expect(paperFor('en-US', 'A4')).toBe('A4');
    expect(paperFor('de-DE', 'LETTER')).toBe('LETTER');
  });
});

describe('hostile and foreign text never fails a render, and nothing in it is interpreted', () => {
  const HOSTILE = [
    '<script>alert("x")</script>',
    '%PDF-1.7 obj << /JavaScript (app.alert(1)) >> endobj',
    'Hello \u202Egnp.exe\u202C world \u2066isolate\u2069',
    'Emoji 😀🏠👷‍♀️ and a flag 🇨🇦',
    'Кириллица Жёлтый',
    'Ελληνικά Ωμέγα',
    '日本語の名前 李小龍 김민준',
    'Łódź Ørsted Straße Erdős',
    'tab\there\u0000nul\u0007bell',
  ].join(' · ');

  it('renders a document with it in every field', async () => {
    const hostile = quoteModel(8, { rooms: 2, accepted: true });
    const model: DocumentModel = JSON.parse(
      JSON.stringify(hostile, (key, value: unknown) =>
        typeof value === 'string' &&
        !['v', 'paper', 'locale', 'createdAt', 'kind', 'type', 'data', 'anchor'].includes(key)
          ? `${value} ${HOSTILE}`
          : value,
      ),
    ) as DocumentModel;
    const pdf = await layoutDocument(model);
    const text = pdfText(pdf);
    expect(text).toContain('<script>alert("x")</script>');
    expect(text).toContain('Кириллица Жёлтый');
    expect(text).toContain('Ελληνικά Ωμέγα');
    expect(text).toContain('Łódź Ørsted Straße Erdős');
    // Bidirectional overrides are removed: the text reads in the order it was typed.
    expect(text).toContain('Hello gnp.exe world isolate');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // What the fonts cannot draw falls back to the replacement glyph.
    expect(text).toContain('\uFFFD');
    expect(text).not.toContain('日本語');
    const info = pdfInfo(pdf);
    expect(info.JavaScript).toBe('no');
    expect(Number(info.Pages)).toBeGreaterThan(1);
    // The only "%PDF" in the file is its header: text is written as glyph ids, never as its characters.
    expect(Buffer.from(pdf).indexOf('%PDF', 1)).toBe(-1);
  });
});

describe('a 500-line, 10-room document paginates', () => {
  it('repeats the header on every page of lines, keeps each line on one page, footers right, nothing past a margin', async () => {
    const base = quoteModel(500, { rooms: 10, paper: 'A4' });
    // Each line told apart by its number, some long, one with huge figures (set smaller, never cut).
    let n = 0;
    const model: DocumentModel = {
      ...base,
      sections: base.sections.map((s) => ({
        ...s,
        lines: s.lines.map((line) => {
          n += 1;
          return {
            ...line,
            description: `Line ${n}: ${line.description}${n % 50 === 0 ? ` ${'with a long explanation '.repeat(12)}` : ''}`,
            ...(n === 250 ? { amount: '$123,456,789,012.34', unitPrice: '$98,765,432.10' } : {}),
          };
        }),
      })),
    };
    const pdf = await layoutDocument(model);
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(15);
    pages.forEach((page, i) => expect(page).toContain(`Q-0007 rev 2 · page ${i + 1} of ${pages.length}`));
    const lines = model.sections.flatMap((s) => s.lines);
    const pagesWithLines = new Set<number>();
    lines.forEach((line, i) => {
      const row = fold(
        `Line ${i + 1}: ${line.description.slice(`Line ${i + 1}: `.length)} ${line.unit ? `${line.quantity} ${line.unit}` : line.quantity} ${line.unitPrice} ${line.amount}`,
      );
      const found = pages.flatMap((page, p) => (page.includes(row) ? [p] : []));
      // Whole on exactly one page: never split across a page edge.
      expect(found, `line ${i + 1}`).toHaveLength(1);
      pagesWithLines.add(found[0]!);
    });
    for (const p of pagesWithLines) expect(pages[p]).toContain('Description Quantity Unit price Amount');
    const { pages: sizes, words } = pdfWords(pdf);
    for (const w of words) {
      const size = sizes[w.page - 1]!;
      expect(w.xMin, `"${w.text}" on page ${w.page}`).toBeGreaterThanOrEqual(30);
      expect(w.xMax, `"${w.text}" on page ${w.page}`).toBeLessThanOrEqual(size.width - 30);
      expect(w.yMax, `"${w.text}" on page ${w.page}`).toBeLessThanOrEqual(size.height - 20);
    }
    expect(pdfText(pdf)).toContain('$123,456,789,012.34');
  });
});

describe('the render pool (docs/documents.md, "The renderer")', () => {
  const pools: Array<ReturnType<typeof renderPool>> = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('refuses a document beyond its queue at once, and renders the others', async () => {
    const pool = renderPool({ threads: 1, maxQueue: 1 });
    pools.push(pool);
    const results = await Promise.allSettled([1, 2, 3].map(() => pool.render(quoteModel(3))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason.message).toMatch(/queue is full/);
  });

  it('abandons a document past its time limit, and the next one renders on a new thread', async () => {
    const pool = renderPool({ threads: 1, timeoutMs: 1 });
    pools.push(pool);
    await expect(pool.render(quoteModel(500, { rooms: 10 }))).rejects.toThrow(/took longer than/);
    const patient = renderPool({ threads: 1 });
    pools.push(patient);
    expect(pdfText(await patient.render(quoteModel(3)))).toContain('Q-0007 rev 2');
  });

  it("answers a layout failure as the document's error", async () => {
    const pool = renderPool({ threads: 1 });
    pools.push(pool);
    await expect(pool.render({ ...quoteModel(3), v: 2 } as unknown as DocumentModel)).rejects.toThrow(
      /does not know document model version 2/,
    );
    expect(pdfText(await pool.render(quoteModel(3)))).toContain('Ada Lovelace');
  });
});
