import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptanceContent, acceptanceHash, canonicalJson } from '../../../src/domain/quotes/acceptance-hash.js';
import type { QuoteView } from '../../../src/domain/quotes/quote-view.js';

/**
 * Fixed test vectors of the acceptance hash (docs/quotes.md, "The acceptance hash"): a revision's canonical JSON and
 * its SHA-256, written out here rather than computed by the production function, so a field dropped, renamed or
 * re-encoded fails the test. One vector per version of the canonical JSON; an acceptance keeps the version it used,
 * so these never change: a new field means a new version and a new vector.
 */

/** Version 1 (every acceptance before migration 0045): no sections, no deposit, no `v`. */
const V1_QUOTE = {
  number: 'Q-0007',
  revision: 2,
  currency: 'CAD',
  lines: [
    {
      description: 'Oak floor — Kitchen',
      quantity: 1432,
      unit: 'm2',
      unitPrice: 4250,
      amount: 60860,
      taxes: ['GST', 'QST'],
      optional: false,
      chosen: true,
    },
    {
      description: 'Skirting "Colonial" 12 × 70 mm\nwhite',
      quantity: 1460,
      unit: 'm',
      unitPrice: 1199,
      amount: 17505,
      taxes: ['GST'],
      optional: true,
      chosen: false,
    },
    {
      description: 'Discount',
      quantity: 100,
      unit: 'fixed',
      unitPrice: -5000,
      amount: -5000,
      taxes: ['GST', 'QST'],
      optional: false,
      chosen: true,
    },
  ],
  taxes: [
    { name: 'GST', rate: 5000, amount: 2793 },
    { name: 'QST', rate: 9975, amount: 5572 },
  ],
  subtotal: 55860,
  total: 64225,
  note: null,
  terms: 'Half up front; the rest on completion. Café ☕',
  validUntil: '2026-12-26',
};

const V1_JSON =
  '{"currency":"CAD","lines":[{"amount":60860,"chosen":true,"description":"Oak floor — Kitchen","optional":false,"quantity":1432,"taxes":["GST","QST"],"unit":"m2","unitPrice":4250},{"amount":17505,"chosen":false,"description":"Skirting \\"Colonial\\" 12 × 70 mm\\nwhite","optional":true,"quantity":1460,"taxes":["GST"],"unit":"m","unitPrice":1199},{"amount":-5000,"chosen":true,"description":"Discount","optional":false,"quantity":100,"taxes":["GST","QST"],"unit":"fixed","unitPrice":-5000}],"note":null,"number":"Q-0007","revision":2,"subtotal":55860,"taxes":[{"amount":2793,"name":"GST","rate":5000},{"amount":5572,"name":"QST","rate":9975}],"terms":"Half up front; the rest on completion. Café ☕","total":64225,"validUntil":"2026-12-26"}';

const V1_SHA256 = '09b2bfd7d963ef8be47e3a9bbc0bd91bf06578e845b8a55dec1a37f2515346b3';

describe('the acceptance hash: fixed test vectors', () => {
  it('version 1: the canonical JSON and its SHA-256, as written here', () => {
    // The vector itself: the literal JSON hashes to the literal digest (no production code involved).
    expect(crypto.createHash('sha256').update(V1_JSON, 'utf8').digest('hex')).toBe(V1_SHA256);
    const quote = V1_QUOTE as unknown as QuoteView;
    expect(canonicalJson(acceptanceContent(quote))).toBe(V1_JSON);
    expect(acceptanceHash(quote)).toBe(V1_SHA256);
  });
});
