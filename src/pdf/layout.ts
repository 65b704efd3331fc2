import PDFDocument from 'pdfkit';
import type {
  DocumentLine,
  DocumentModel,
  DocumentPlan,
  DocumentSection,
  PlanPoint,
} from '../domain/document-model.js';
import { fonts, printable } from './fonts.js';
import { drawPlan } from './plan-drawing.js';

/**
 * The layout of a document's PDF (docs/documents.md, "The renderer"), with PDFKit: the business block and its logo,
 * the number and dates, the customer, the lines' table (its header repeated at the top of every page it continues
 * on, no line split across a page edge), subtotals, taxes and total, the texts, the plans as vector drawings, the
 * acceptance page, and `Q-0007 rev 2 · page 2 of 3` at the foot of every page. Everything printed comes from the
 * model; nothing here formats a figure. Metadata are fixed by the model, so the same model gives the same bytes.
 */

/** Page sizes in points (1/72 in). */
const SIZES = { A4: [595.28, 841.89], LETTER: [612, 792] } as const;
const MARGIN = { top: 48, side: 48, bottom: 60 };
/** Where the footer's baseline box starts, up from the page's bottom edge. */
const FOOTER_FROM_BOTTOM = 36;

const INK = '#111827';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const FAINT = '#e5e7eb';

const BODY = 9.5;
const SMALL = 8;

/** The table's columns from the right edge: amount, unit price, quantity; the description takes the rest. */
const COL = { amount: 84, price: 84, qty: 84, gap: 10 };

interface Cursor {
  doc: PDFKit.PDFDocument;
  model: DocumentModel;
  covered: ReadonlySet<number>;
  left: number;
  width: number;
  /** The lowest y content may reach on a page. */
  bottom: number;
  y: number;
  /** Set while the lines' table is being drawn: a new page repeats its header. */
  inTable: boolean;
}

/** Renders a model to PDF bytes. */
export function layoutDocument(model: DocumentModel): Promise<Buffer> {
  if (model.v !== 1) throw new Error(`This renderer does not know document model version ${String(model.v)}`);
  const { regular, bold, covered } = fonts();
  const size = SIZES[model.paper] ?? SIZES.A4;
  const doc = new PDFDocument({
    size: [size[0], size[1]],
    margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.side, right: MARGIN.side },
    bufferPages: true,
    autoFirstPage: true,
    compress: true,
    lang: model.locale,
    displayTitle: true,
    info: {
      Title: model.meta.title,
      Author: model.meta.author,
      Creator: 'Leadscan',
      Producer: 'Leadscan',
      CreationDate: new Date(model.meta.createdAt),
      ModDate: new Date(model.meta.createdAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // PDFKit takes a parsed fontkit face as it is (its types know only paths and bytes).
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  const c: Cursor = {
    doc,
    model,
    covered,
    left: MARGIN.side,
    width: size[0] - 2 * MARGIN.side,
    bottom: size[1] - MARGIN.bottom,
    y: MARGIN.top,
    inTable: false,
  };
  // A page PDFKit adds itself (a long note flowing over) starts at the top like ours.
  doc.on('pageAdded', () => {
    c.y = MARGIN.top;
  });
  header(c);
  customer(c);
  if (model.title) {
    c.y += 4;
    text(c, model.title, { font: 'bold', size: 13 });
    c.y += 8;
  }
  table(c);
  totals(c);
  texts(c);
  plans(c);
  acceptance(c);
  footers(c);
  doc.end();
  return done;
}

interface TextOptions {
  font?: 'regular' | 'bold';
  size?: number;
  color?: string;
  x?: number;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

/** Sets the font for a measure or a draw; every text goes through `printable` first. */
function use(c: Cursor, o: TextOptions): void {
  c.doc
    .font(o.font ?? 'regular')
    .fontSize(o.size ?? BODY)
    .fillColor(o.color ?? INK);
}

function heightOf(c: Cursor, value: string, o: TextOptions = {}): number {
  use(c, o);
  return c.doc.heightOfString(printable(value, c.covered), { width: o.width ?? c.width, lineGap: 1 });
}

/** Writes text at the cursor (flowing over pages when it is longer than what is left) and moves the cursor below it. */
function text(c: Cursor, value: string, o: TextOptions = {}): void {
  use(c, o);
  c.doc.text(printable(value, c.covered), o.x ?? c.left, c.y, {
    width: o.width ?? c.width,
    align: o.align ?? 'left',
    lineGap: 1,
  });
  c.y = c.doc.y;
}

/** Writes text at a place without moving the cursor or flowing (a cell, a label). */
function textAt(c: Cursor, value: string, x: number, y: number, o: TextOptions & { width: number }): void {
  use(c, o);
  c.doc.text(printable(value, c.covered), x, y, { width: o.width, align: o.align ?? 'left', lineGap: 1 });
}

/** A figure in a narrow column: set smaller until it fits on one line (never cut, never wrapped mid-number). */
function fitted(c: Cursor, value: string, width: number, o: TextOptions): number {
  let size = o.size ?? BODY;
  use(c, { ...o, size });
  const shown = printable(value, c.covered);
  while (size > 5 && c.doc.widthOfString(shown) > width) {
    size -= 0.5;
    c.doc.fontSize(size);
  }
  return size;
}

function cellFigure(c: Cursor, value: string, right: number, width: number, y: number, o: TextOptions = {}): void {
  const size = fitted(c, value, width, o);
  textAt(c, value, right - width, y, { ...o, size, width, align: 'right' });
}

function newPage(c: Cursor): void {
  c.doc.addPage();
  c.y = MARGIN.top;
  if (c.inTable) tableHeader(c);
}

/** Starts a new page unless `height` fits below the cursor. */
function ensure(c: Cursor, height: number): void {
  if (c.y + height > c.bottom) newPage(c);
}

function rule(c: Cursor, y: number, color = RULE, x = c.left, width = c.width): void {
  c.doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.6)
    .strokeColor(color)
    .stroke();
}

function header(c: Cursor): void {
  const { business, dates } = c.model;
  const top = c.y;
  const leftWidth = c.width * 0.56;
  const rightWidth = c.width * 0.4;
  const rightX = c.left + c.width - rightWidth;
  // The business: logo, name, address, phone, email, tax numbers.
  let y = top;
  if (business.logo) {
    const maxW = 160;
    const maxH = 56;
    const ratio = business.logo.width / Math.max(1, business.logo.height);
    const w = Math.min(maxW, maxH * ratio);
    const h = w / ratio;
    try {
      c.doc.image(Buffer.from(business.logo.data, 'base64'), c.left, y, { width: w, height: h });
      y += h + 10;
    } catch {
      // A logo the image reader refuses (checked at upload, so never expected) leaves the name to speak alone.
    }
  }
  c.y = y;
  text(c, business.name, { font: 'bold', size: 13, width: leftWidth });
  c.y += 2;
  for (const line of [business.address, business.phone, business.email]) {
    if (line) text(c, line, { width: leftWidth, color: '#374151' });
  }
  for (const t of business.taxNumbers)
    text(c, `${t.name}: ${t.value}`, { size: SMALL, color: MUTED, width: leftWidth });
  const leftBottom = c.y;
  // The document: what it is, its number, its dates.
  c.y = top;
  text(c, c.model.heading.toUpperCase(), {
    size: SMALL,
    color: MUTED,
    x: rightX,
    width: rightWidth,
    align: 'right',
  });
  c.y += 2;
  text(c, c.model.footerLabel, { font: 'bold', size: 18, x: rightX, width: rightWidth, align: 'right' });
  c.y += 6;
  for (const d of dates) {
    const labelWidth = rightWidth * 0.45;
    const valueWidth = rightWidth - labelWidth - 6;
    const h = Math.max(
      heightOf(c, d.label, { width: labelWidth, size: BODY }),
      heightOf(c, d.value, { width: valueWidth, size: BODY }),
    );
    textAt(c, d.label, rightX, c.y, { width: labelWidth, color: MUTED, align: 'right' });
    textAt(c, d.value, rightX + labelWidth + 6, c.y, { width: valueWidth, align: 'right' });
    c.y += h + 2;
  }
  c.y = Math.max(leftBottom, c.y) + 16;
  rule(c, c.y, FAINT);
  c.y += 14;
}

function customer(c: Cursor): void {
  const k = c.model.customer;
  if (!k.name && !k.address && !k.email && !k.phone) return;
  text(c, k.label, { size: SMALL, color: MUTED, width: c.width * 0.6 });
  c.y += 2;
  if (k.name) text(c, k.name, { font: 'bold', size: 10.5, width: c.width * 0.6 });
  for (const line of [k.address, k.email, k.phone]) if (line) text(c, line, { width: c.width * 0.6 });
  c.y += 14;
}

/** The x of each column's right edge, and the description's width. */
function columns(c: Cursor) {
  const right = c.left + c.width;
  const amountR = right;
  const priceR = amountR - COL.amount - COL.gap;
  const qtyR = priceR - COL.price - COL.gap;
  const descW = qtyR - COL.qty - COL.gap - c.left;
  return { amountR, priceR, qtyR, descW };
}

function tableHeader(c: Cursor): void {
  const col = columns(c);
  const y = c.y;
  const o = { size: SMALL, color: MUTED, font: 'bold' as const };
  textAt(c, 'Description', c.left, y, { ...o, width: col.descW });
  textAt(c, 'Quantity', col.qtyR - COL.qty, y, { ...o, width: COL.qty, align: 'right' });
  textAt(c, 'Unit price', col.priceR - COL.price, y, { ...o, width: COL.price, align: 'right' });
  textAt(c, 'Amount', col.amountR - COL.amount, y, { ...o, width: COL.amount, align: 'right' });
  c.y = y + 13;
  rule(c, c.y, RULE);
  c.y += 6;
}

const ROW_PAD = 5;

function optionalNote(line: DocumentLine): string | null {
  if (!line.optional) return null;
  return line.chosen ? 'Optional: included' : 'Optional: not included';
}

/**
 * A description cut into pieces that each fit on an empty page, at its line breaks (a description is at most 1,000
 * characters, so only one of many short lines can be taller than a page). Almost always one piece.
 */
function pieces(c: Cursor, description: string, width: number): string[] {
  const room = c.bottom - MARGIN.top - 40;
  if (heightOf(c, description, { width }) <= room) return [description];
  const out: string[] = [];
  let current = '';
  for (const part of description.split('\n')) {
    const next = current === '' ? part : `${current}\n${part}`;
    if (current !== '' && heightOf(c, next, { width }) > room) {
      out.push(current);
      current = part;
    } else current = next;
  }
  out.push(current);
  return out;
}

function lineRow(c: Cursor, line: DocumentLine): void {
  const col = columns(c);
  const note = optionalNote(line);
  const parts = pieces(c, line.description, col.descW);
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const descH = heightOf(c, part, { width: col.descW });
    const noteH = last && note ? heightOf(c, note, { size: SMALL, width: col.descW }) + 1 : 0;
    const height = descH + noteH + 2 * ROW_PAD;
    // The whole row on one page: a row that does not fit starts the next page (under the repeated header).
    ensure(c, height);
    const y = c.y + ROW_PAD;
    const counted = !line.optional || line.chosen;
    textAt(c, part, c.left, y, { width: col.descW, color: counted ? INK : MUTED });
    if (i === 0) {
      const color = counted ? INK : MUTED;
      cellFigure(c, line.unit ? `${line.quantity} ${line.unit}` : line.quantity, col.qtyR, COL.qty, y, { color });
      cellFigure(c, line.unitPrice, col.priceR, COL.price, y, { color });
      cellFigure(c, line.amount, col.amountR, COL.amount, y, { color });
    }
    if (last && note) textAt(c, note, c.left, y + descH + 1, { size: SMALL, width: col.descW, color: MUTED });
    c.y += height;
    rule(c, c.y, FAINT);
  });
}

function sectionHeading(c: Cursor, section: DocumentSection): void {
  if (!section.heading && !section.choice) return;
  const heading = section.heading ?? '';
  const marker = section.choice
    ? `${section.choice.chosen ? 'Chosen' : 'Not chosen'}${
        section.choice.recommended ? ' · Recommended' : ''
      } · one of “${section.choice.group}”`
    : null;
  const h =
    heightOf(c, heading, { font: 'bold', size: 10.5 }) + (marker ? heightOf(c, marker, { size: SMALL }) + 2 : 0);
  // A heading never sits alone at the foot of a page: it keeps its first line's room with it.
  ensure(c, h + 16 + 30);
  c.y += 10;
  if (heading) text(c, heading, { font: 'bold', size: 10.5 });
  if (marker) text(c, marker, { size: SMALL, color: MUTED });
  c.y += 4;
}

function sectionSubtotal(c: Cursor, section: DocumentSection): void {
  if (!section.subtotal) return;
  const col = columns(c);
  ensure(c, 20);
  const y = c.y + 5;
  const labelW = col.priceR - c.left;
  textAt(c, section.subtotal.label, c.left, y, { width: labelW, align: 'right', font: 'bold' });
  cellFigure(c, section.subtotal.value, col.amountR, COL.amount, y, { font: 'bold' });
  c.y = y + heightOf(c, section.subtotal.label, { width: labelW, font: 'bold' }) + 6;
}

function table(c: Cursor): void {
  ensure(c, 60);
  tableHeader(c);
  c.inTable = true;
  for (const section of c.model.sections) {
    sectionHeading(c, section);
    for (const line of section.lines) lineRow(c, line);
    sectionSubtotal(c, section);
  }
  c.inTable = false;
  c.y += 10;
}

function totals(c: Cursor): void {
  const rows = c.model.totals;
  if (rows.length === 0) return;
  const width = Math.min(280, c.width);
  const x = c.left + c.width - width;
  const labelW = width - COL.amount - COL.gap;
  const heights = rows.map((r) => heightOf(c, r.label, { width: labelW, font: r.strong ? 'bold' : 'regular' }) + 8);
  // The totals stay together, on the page of the last line when they fit.
  ensure(
    c,
    heights.reduce((a, b) => a + b, 0),
  );
  rows.forEach((r, i) => {
    if (r.strong) {
      rule(c, c.y, INK, x, width);
      c.y += 3;
    }
    const o = { font: r.strong ? ('bold' as const) : ('regular' as const), size: r.strong ? 11 : BODY };
    textAt(c, r.label, x, c.y + 2, { ...o, width: labelW });
    cellFigure(c, r.value, x + width, COL.amount + 20, c.y + 2, o);
    c.y += heights[i]!;
  });
  c.y += 14;
}

function texts(c: Cursor): void {
  for (const block of c.model.texts) {
    // A heading keeps at least two lines of its text with it.
    ensure(c, 40);
    text(c, block.heading, { font: 'bold', size: 10.5 });
    c.y += 3;
    text(c, block.body, { color: '#1f2937' });
    c.y += 14;
  }
}

function plans(c: Cursor): void {
  const list = c.model.plans;
  if (list.length === 0) return;
  const gap = 16;
  const cellW = (c.width - gap) / 2;
  const cellH = 200;
  ensure(c, 24 + cellH);
  text(c, 'Floor plans', { font: 'bold', size: 10.5 });
  c.y += 6;
  for (let i = 0; i < list.length; i += 2) {
    ensure(c, cellH);
    const top = c.y;
    [list[i], list[i + 1]].forEach((plan, j) => {
      if (plan) planCell(c, plan, c.left + j * (cellW + gap), top, cellW, cellH);
    });
    c.y = top + cellH + 8;
  }
  if (c.model.plansNote) text(c, c.model.plansNote, { size: SMALL, color: MUTED });
  c.y += 10;
}

function planCell(c: Cursor, plan: DocumentPlan, x: number, y: number, w: number, h: number): void {
  c.doc.roundedRect(x, y, w, h, 4).lineWidth(0.6).strokeColor(FAINT).stroke();
  textAt(c, plan.name, x + 8, y + 7, { font: 'bold', size: 9, width: w - 16 });
  const label = (value: string, at: PlanPoint, anchor: 'start' | 'middle' | 'end', size: number) => {
    use(c, { size, color: INK });
    const shown = printable(value, c.covered);
    const tw = c.doc.widthOfString(shown);
    const left = anchor === 'start' ? at[0] : anchor === 'end' ? at[0] - tw : at[0] - tw / 2;
    c.doc.text(shown, left, at[1] - size * 0.6, { lineBreak: false });
  };
  drawPlan(c.doc, plan, { x: x + 8, y: y + 24, w: w - 16, h: h - 32 }, label);
}

function acceptance(c: Cursor): void {
  const a = c.model.acceptance;
  if (!a) return;
  c.doc.addPage();
  c.y = MARGIN.top;
  text(c, 'Acceptance', { font: 'bold', size: 16 });
  c.y += 6;
  text(
    c,
    `${c.model.heading} ${c.model.footerLabel} from ${c.model.business.name} was accepted on its page as follows.`,
    {
      color: '#374151',
    },
  );
  c.y += 14;
  const rows: Array<{ label: string; value: string; mono?: boolean }> = [
    { label: 'Name as typed', value: a.name },
    { label: 'Time', value: a.at },
    { label: 'Time (UTC)', value: a.atUtc },
    { label: 'Options chosen', value: a.options.length > 0 ? a.options.join('\n') : 'No optional lines' },
    { label: "SHA-256 of the revision's content (the acceptance hash)", value: a.contentSha256, mono: true },
    {
      label: 'SHA-256 of the PDF that was sent',
      value: a.sentPdfSha256 ?? 'The PDF of the sent revision could not be made; its page was the quote as sent.',
      mono: a.sentPdfSha256 !== null,
    },
  ];
  for (const r of rows) {
    ensure(c, 40);
    text(c, r.label, { size: SMALL, color: MUTED });
    c.y += 2;
    text(c, r.value, { size: r.mono ? 8.5 : 10.5, font: r.mono ? 'regular' : 'bold' });
    c.y += 12;
    rule(c, c.y - 6, FAINT);
  }
  c.y += 6;
  text(
    c,
    "The SHA-256 of the revision's content is computed from the quote's figures as shown (docs: the acceptance " +
      'record); anyone can compute it again from the quote to check that nothing changed since.',
    { size: SMALL, color: MUTED },
  );
}

/** `Q-0007 rev 2 · page 2 of 3` on every page, written once the page count is known. */
function footers(c: Cursor): void {
  const range = c.doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    c.doc.switchToPage(i);
    const page = c.doc.page;
    // Writing inside the bottom margin would make PDFKit start a page: lift the margin while the footer is written.
    const bottom = page.margins.bottom;
    page.margins.bottom = 0;
    const y = page.height - FOOTER_FROM_BOTTOM;
    rule(c, y - 8, FAINT);
    const label = `${c.model.footerLabel} · page ${i + 1 - range.start} of ${range.count}`;
    use(c, { size: SMALL, color: MUTED });
    c.doc.text(printable(c.model.business.name, c.covered), c.left, y, {
      width: c.width * 0.55,
      lineBreak: false,
      ellipsis: true,
      height: 10,
    });
    c.doc.text(printable(label, c.covered), c.left + c.width * 0.45, y, {
      width: c.width * 0.55,
      align: 'right',
      lineBreak: false,
    });
    page.margins.bottom = bottom;
  }
}
