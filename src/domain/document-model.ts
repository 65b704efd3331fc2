/**
 * A sent document as its PDF shows it (docs/documents.md, "The document model"): a quote revision, an invoice or a
 * credit note, as plain data that survives JSON, with every figure already formatted for reading (money through
 * money.ts's formatMoney, quantities through formatQuantity, dates in the workspace's locale), so the PDF says
 * exactly what the customer's page says. The renderer (src/pdf/) only lays it out: it formats nothing and reads
 * nothing else. A model is frozen into the database when its document is sent, and rendered from there, so a later
 * change of settings, logo, units or renderer code that reads this model changes no byte of a sent PDF.
 *
 * This file sits at the domain's root and imports no domain folder: each document kind maps its own view onto it
 * (quotes/quote-document.ts; invoices the same way).
 */

export type DocumentKind = 'quote' | 'invoice' | 'credit_note';

/** A4 (210 × 297 mm) or US Letter (8.5 × 11 in). */
export type Paper = 'A4' | 'LETTER';
export const PAPERS: readonly Paper[] = ['A4', 'LETTER'];

/** Regions whose paper is Letter (docs/documents.md, "The logo and the paper"); every other region uses A4. */
const LETTER_REGIONS: ReadonlySet<string> = new Set(['US', 'CA', 'MX', 'PH']);

/** The workspace's paper: its Settings choice, else Letter where its locale's region is US, CA, MX or PH, else A4. */
export function paperFor(locale: string, choice: Paper | null | undefined): Paper {
  if (choice) return choice;
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    region = undefined;
  }
  return region && LETTER_REGIONS.has(region) ? 'LETTER' : 'A4';
}

/** A logo as frozen into a model: the image's own bytes (PNG or JPEG, checked when it was uploaded), base64. */
export interface DocumentLogo {
  type: 'png' | 'jpeg';
  /** Base64 of the file's bytes. */
  data: string;
  /** Pixels, for the aspect ratio. */
  width: number;
  height: number;
}

export interface DocumentBusiness {
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  /** Tax registration numbers, e.g. `{ name: 'GST/HST', value: '123456789 RT0001' }`. */
  taxNumbers: Array<{ name: string; value: string }>;
  logo: DocumentLogo | null;
}

export interface DocumentCustomer {
  /** "Prepared for" (a quote), "Bill to" (an invoice). */
  label: string;
  name: string | null;
  address: string | null;
  email: string | null;
  phone: string | null;
}

/** One line as read: every figure a string already in the workspace's locale and currency. */
export interface DocumentLine {
  description: string;
  /** `23.16`, `2` (formatQuantity). */
  quantity: string;
  /** `m²`, `h`, `ft`; empty for a fixed price. */
  unit: string;
  unitPrice: string;
  amount: string;
  /** An optional line (the customer ticks it or not); `chosen` says whether it counts in the totals. */
  optional: boolean;
  chosen: boolean;
}

/**
 * A section's place in a choice between alternatives (good / better / best): sections sharing `group` are one choice.
 */
export interface DocumentChoice {
  group: string;
  recommended: boolean;
  chosen: boolean;
}

export interface DocumentSection {
  /** Null for the one unnamed section of a quote without sections. */
  heading: string | null;
  choice: DocumentChoice | null;
  lines: DocumentLine[];
  /** `{ label: 'Kitchen subtotal', value: '$1,234.00' }`; null when the document shows none (one unnamed section). */
  subtotal: { label: string; value: string } | null;
}

/**
 * A row of the totals: subtotal, each tax (`GST 5 %`), total, and for documents that have them "Deposit due on
 * acceptance", paid, balance. `strong` rows are set in bold with a rule above (the total, a balance).
 */
export interface DocumentTotal {
  label: string;
  value: string;
  strong?: boolean;
}

/** A note, terms or payment instructions: a heading and plain text (line breaks kept). */
export interface DocumentText {
  heading: string;
  body: string;
}

/** A point in metres, in the plan's own axes (x right, y down as drawn). */
export type PlanPoint = readonly [number, number];

/**
 * A plan's strokes: the floor (a filled polygon), walls (thick), windows (thin dashed over a gap), doors and openings
 * (a gap), a door's swing (a thin polyline). All coordinates in metres; the renderer scales them to fit its box.
 */
export interface PlanShape {
  kind: 'floor' | 'wall' | 'gap' | 'window' | 'swing';
  points: PlanPoint[];
  closed: boolean;
}

export interface PlanLabel {
  /** Where the text starts, is centred or ends (`anchor`), in metres; the renderer offsets it along `normal`. */
  at: PlanPoint;
  /** A unit vector pointing away from the room: the label sits that way from `at`. */
  normal: PlanPoint;
  anchor: 'start' | 'middle' | 'end';
  text: string;
}

/** One priced room's floor plan as neutral vector data (docs/documents.md, "The document model"). */
export interface DocumentPlan {
  name: string;
  shapes: PlanShape[];
  labels: PlanLabel[];
  /** A scale bar: its length in metres and its label ("2 m", "10 ft"). */
  scale: { metres: number; label: string };
}

/** The acceptance page of an accepted copy (docs/documents.md, "The accepted copy"). */
export interface DocumentAcceptance {
  /** The name as the customer typed it. */
  name: string;
  /** The time in the workspace's zone (named), and in UTC. */
  at: string;
  atUtc: string;
  /** The options the acceptance chose, each as one line ("Skirting boards: included"); empty for none. */
  options: string[];
  /** SHA-256 of the revision's content: the acceptance hash (docs/documents.md, "The accepted copy"). */
  contentSha256: string;
  /**
   * SHA-256 of the sent PDF, filled in when the accepted copy is rendered; null when the sent PDF could not be made.
   */
  sentPdfSha256: string | null;
}

export interface DocumentModel {
  /** The model's layout version: a renderer renders the versions it knows, never an older model differently. */
  v: 1;
  kind: DocumentKind;
  /** What the document calls itself at the top: "Quote", "Invoice", "Credit note". */
  heading: string;
  /** `Q-0007`, `INV-0003`, `CN-0001`. */
  number: string;
  /** 1 for invoices and credit notes. */
  revision: number;
  /** `Q-0007 rev 2` (from revision 2), else the number: the footer's `{footerLabel} · page 2 of 3`. */
  footerLabel: string;
  /** `Q-0007.pdf`, `Q-0007-rev2.pdf`, `Q-0007-accepted.pdf`, `INV-0003.pdf`. */
  fileName: string;
  /** Fixed metadata: the same model gives the same bytes. `createdAt` is the send time (ISO 8601). */
  meta: { title: string; author: string; createdAt: string };
  paper: Paper;
  /** BCP 47 tag of the words and figures (the PDF's language entry). */
  locale: string;
  business: DocumentBusiness;
  customer: DocumentCustomer;
  /** Label and value pairs beside the number: `Date`, `Valid until` (quotes) or `Due date` (invoices). */
  dates: Array<{ label: string; value: string }>;
  title: string | null;
  sections: DocumentSection[];
  totals: DocumentTotal[];
  /** Note, terms, payment instructions, in that order, those present. */
  texts: DocumentText[];
  plans: DocumentPlan[];
  /** Units the plans' labels are written in, said under the plans ("Lengths in metres"). */
  plansNote: string | null;
  acceptance: DocumentAcceptance | null;
}

/** `Q-0007 rev 2` from revision 2, else `Q-0007`: the footer's label and the document's name in its title. */
export function documentLabel(number: string, revision: number): string {
  return revision > 1 ? `${number} rev ${revision}` : number;
}

/** The file name of a document's PDF: `Q-0007.pdf`, `Q-0007-rev2.pdf`, `Q-0007-accepted.pdf`, `INV-0003.pdf`. */
export function documentFileName(number: string, revision: number, accepted = false): string {
  const safe = number.replace(/[^A-Za-z0-9._-]/g, '_');
  // A quote is accepted once, whatever its revision: the accepted copy needs no revision in its name.
  if (accepted) return `${safe}-accepted.pdf`;
  return `${safe}${revision > 1 ? `-rev${revision}` : ''}.pdf`;
}

/** The PDF's fixed title: `Quote Q-0007 rev 2 — Bright Floors`. */
export function documentTitle(heading: string, label: string, business: string): string {
  return `${heading} ${label} — ${business}`;
}
