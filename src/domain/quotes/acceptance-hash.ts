import crypto from 'node:crypto';
import type { QuoteView } from './quote-view.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON with object keys sorted (by UTF-16 code units) at every level and no whitespace: one text for one content. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The versions of the canonical JSON: an acceptance keeps the one it was hashed with, and verifies under it. */
export type AcceptanceVersion = 1 | 2;

/** What new acceptances hash with. */
export const ACCEPTANCE_VERSION: AcceptanceVersion = 2;

type HashedQuote = Pick<
  QuoteView,
  'number' | 'revision' | 'currency' | 'lines' | 'taxes' | 'subtotal' | 'total' | 'note' | 'terms' | 'validUntil'
> &
  Partial<Pick<QuoteView, 'sections' | 'deposit'>>;

/**
 * What an acceptance signs (docs/quotes.md, "The acceptance hash"): the revision's content as the customer saw it,
 * with the optional lines as they ticked them. Money as integers in the smallest unit, quantities in hundredths.
 * Version 1 (before sections): the lines, taxes and totals. Version 2 adds `v`, the sections in order (heading,
 * subtotal, choice group, recommended, chosen: the alternative the customer took), each line's section (its index in
 * `sections`), and the deposit (terms and the amount due from what counts).
 */
export function acceptanceContent(quote: HashedQuote, version: AcceptanceVersion = 1): Json {
  const sections = quote.sections ?? [];
  const index = new Map(sections.map((section, i) => [section.id, i]));
  const content: { [key: string]: Json } = {
    number: quote.number,
    revision: quote.revision,
    currency: quote.currency,
    lines: quote.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      amount: l.amount,
      taxes: l.taxes,
      optional: l.optional,
      chosen: l.chosen,
      ...(version >= 2 ? { section: index.get(l.sectionId) ?? 0 } : {}),
    })),
    taxes: quote.taxes.map((t) => ({ name: t.name, rate: t.rate, amount: t.amount })),
    subtotal: quote.subtotal,
    total: quote.total,
    note: quote.note,
    terms: quote.terms,
    validUntil: quote.validUntil,
  };
  if (version === 1) return content;
  const deposit = quote.deposit ?? null;
  return {
    ...content,
    v: version,
    sections: sections.map((s) => ({
      title: s.title,
      subtotal: s.subtotal,
      choice: s.choice,
      recommended: s.recommended,
      chosen: s.chosen,
    })),
    deposit: deposit && { percent: deposit.percent, fixed: deposit.fixed, amount: deposit.amount },
  };
}

/** SHA-256 (hex) of the canonical JSON of `acceptanceContent` under `version` (1 unless given). */
export function acceptanceHash(quote: HashedQuote, version: AcceptanceVersion = 1): string {
  return crypto
    .createHash('sha256')
    .update(canonicalJson(acceptanceContent(quote, version)), 'utf8')
    .digest('hex');
}

/** Whether an accepted revision, as stored, still hashes to what its acceptance kept (under the version it used). */
export function acceptanceVerifies(quote: HashedQuote & Pick<QuoteView, 'acceptanceHash' | 'acceptanceVersion'>) {
  return quote.acceptanceHash !== null && acceptanceHash(quote, quote.acceptanceVersion ?? 1) === quote.acceptanceHash;
}
