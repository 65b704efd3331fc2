import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  acceptanceContent,
  acceptanceHash,
  acceptanceVerifies,
  canonicalJson,
} from '../../../src/domain/quotes/acceptance-hash.js';
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

  it('version 2: adds v, the sections (the alternative taken), each line’s section and the deposit', () => {
    expect(crypto.createHash('sha256').update(V2_JSON, 'utf8').digest('hex')).toBe(V2_SHA256);
    const quote = V2_QUOTE as unknown as QuoteView;
    expect(canonicalJson(acceptanceContent(quote, 2))).toBe(V2_JSON);
    expect(acceptanceHash(quote, 2)).toBe(V2_SHA256);
    // Every field of version 2 is in the hash: a different alternative taken, or another deposit, hashes otherwise.
    const otherChoice = {
      ...V2_QUOTE,
      sections: V2_QUOTE.sections.map((s) => ({ ...s, chosen: s.choice === null || !s.chosen })),
    };
    expect(acceptanceHash(otherChoice as unknown as QuoteView, 2)).not.toBe(V2_SHA256);
    const otherDeposit = { ...V2_QUOTE, deposit: { ...V2_QUOTE.deposit, amount: 24146 } };
    expect(acceptanceHash(otherDeposit as unknown as QuoteView, 2)).not.toBe(V2_SHA256);
    // Under version 1 the same revision hashes as version 1 always did (its fields only).
    expect(canonicalJson(acceptanceContent(quote, 1))).not.toContain('"sections"');
  });

  it('an acceptance verifies under the version it was made with', () => {
    const v1 = { ...(V1_QUOTE as unknown as QuoteView), acceptanceHash: V1_SHA256, acceptanceVersion: 1 as const };
    const v2 = { ...(V2_QUOTE as unknown as QuoteView), acceptanceHash: V2_SHA256, acceptanceVersion: 2 as const };
    expect(acceptanceVerifies(v1)).toBe(true);
    expect(acceptanceVerifies(v2)).toBe(true);
    expect(acceptanceVerifies({ ...v2, acceptanceVersion: 1 })).toBe(false);
    expect(acceptanceVerifies({ ...v1, total: 1 })).toBe(false);
  });
});

/** Version 2 (since sections): the floor quote with its choice, the laminate taken, and a 30 % deposit. */
const V2_QUOTE = {
  number: 'Q-0008',
  revision: 1,
  currency: 'CAD',
  sections: [
    { id: 'qsc_a', title: 'Preparation', subtotal: 20000, choice: null, recommended: false, chosen: true },
    { id: 'qsc_b', title: 'Oak engineered', subtotal: 120000, choice: 'c1', recommended: true, chosen: false },
    { id: 'qsc_c', title: 'Laminate', subtotal: 50000, choice: 'c1', recommended: false, chosen: true },
  ],
  lines: (
    [
      ['Remove the old floor', 100, 'fixed', 20000, 20000, 'qsc_a'],
      ['Oak engineered flooring, laid', 2000, 'm2', 6000, 120000, 'qsc_b'],
      ['Laminate flooring, laid', 2000, 'm2', 2500, 50000, 'qsc_c'],
    ] as const
  ).map(([description, quantity, unit, unitPrice, amount, sectionId]) => ({
    id: `line-${sectionId}`,
    description,
    quantity,
    unit,
    unitPrice,
    amount,
    taxes: ['GST', 'QST'],
    optional: false,
    chosen: true,
    sectionId,
  })),
  taxes: [
    { name: 'GST', rate: 5000, amount: 3500 },
    { name: 'QST', rate: 9975, amount: 6983 },
  ],
  subtotal: 70000,
  total: 80483,
  deposit: { percent: 30000, fixed: null, amount: 24145 },
  note: null,
  terms: 'Half up front.',
  validUntil: '2026-12-26',
};

const V2_JSON =
  '{"currency":"CAD","deposit":{"amount":24145,"fixed":null,"percent":30000},"lines":[{"amount":20000,"chosen":true,"description":"Remove the old floor","optional":false,"quantity":100,"section":0,"taxes":["GST","QST"],"unit":"fixed","unitPrice":20000},{"amount":120000,"chosen":true,"description":"Oak engineered flooring, laid","optional":false,"quantity":2000,"section":1,"taxes":["GST","QST"],"unit":"m2","unitPrice":6000},{"amount":50000,"chosen":true,"description":"Laminate flooring, laid","optional":false,"quantity":2000,"section":2,"taxes":["GST","QST"],"unit":"m2","unitPrice":2500}],"note":null,"number":"Q-0008","revision":1,"sections":[{"choice":null,"chosen":true,"recommended":false,"subtotal":20000,"title":"Preparation"},{"choice":"c1","chosen":false,"recommended":true,"subtotal":120000,"title":"Oak engineered"},{"choice":"c1","chosen":true,"recommended":false,"subtotal":50000,"title":"Laminate"}],"subtotal":70000,"taxes":[{"amount":3500,"name":"GST","rate":5000},{"amount":6983,"name":"QST","rate":9975}],"terms":"Half up front.","total":80483,"v":2,"validUntil":"2026-12-26"}';

const V2_SHA256 = 'f9595464536a2ef5e07979f063c0a2762a125eeb183b80b0e30e8c41a9d01c2c';
