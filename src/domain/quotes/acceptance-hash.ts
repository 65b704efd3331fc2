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

/**
 * What an acceptance signs (docs/quotes.md, "The acceptance hash"): the revision's content as the customer saw it,
 * with the optional lines as they ticked them. Money as integers in the smallest unit, quantities in hundredths.
 */
export function acceptanceContent(
  quote: Pick<
    QuoteView,
    'number' | 'revision' | 'currency' | 'lines' | 'taxes' | 'subtotal' | 'total' | 'note' | 'terms' | 'validUntil'
  >,
): Json {
  return {
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
    })),
    taxes: quote.taxes.map((t) => ({ name: t.name, rate: t.rate, amount: t.amount })),
    subtotal: quote.subtotal,
    total: quote.total,
    note: quote.note,
    terms: quote.terms,
    validUntil: quote.validUntil,
  };
}

/** SHA-256 (hex) of the canonical JSON of `acceptanceContent`. */
export function acceptanceHash(quote: Parameters<typeof acceptanceContent>[0]): string {
  return crypto
    .createHash('sha256')
    .update(canonicalJson(acceptanceContent(quote)), 'utf8')
    .digest('hex');
}
