import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depositShare, depositSplit } from '../../../src/domain/invoices/deposit-split.js';
import {
  computeTotals,
  countedLines,
  depositAmount,
  minorDigits,
  parseAmount,
  parseDeposit,
  type PricedLine,
  type PricedSection,
  type TaxRate,
} from '../../../src/domain/money.js';

/**
 * The deposit and the chain (docs/invoices.md, "Deposits" and "The chain"), against an independent reference: exact
 * rationals as BigInt, rounded half away from zero through floor division of magnitudes (not money.ts's divRound).
 */
function refRound(num: bigint, den: bigint): bigint {
  const negative = num < 0n !== den < 0n && num !== 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const magnitude = (2n * n + d) / (2n * d);
  return negative ? -magnitude : magnitude;
}

const TAX_NAMES = ['GST', 'QST', 'Eco'];
const CURRENCIES = ['JPY', 'USD', 'KWD'];

/** A price as a person types it in the currency: up to 5 whole digits and exactly the currency's decimals. */
const priceText = (currency: string) =>
  fc
    .tuple(
      fc.boolean(),
      fc.integer({ min: 0, max: 99_999 }),
      fc.integer({ min: 0, max: 10 ** minorDigits(currency) - 1 }),
    )
    .map(([negative, whole, fraction]) => {
      const digits = minorDigits(currency);
      const text = digits === 0 ? `${whole}` : `${whole}.${String(fraction).padStart(digits, '0')}`;
      return negative && text !== '0' ? `-${text}` : text;
    });

/**
 * A quote as the counting rule sees it: lines (positive and discounts, some optional and unticked) in sections, some
 * of them alternatives of one another with one chosen; up to three taxes with rates of three decimals (0–100 %).
 */
const quoteCase = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    currency: fc.constant(currency),
    rates: fc.tuple(
      fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 30_000 }),
      fc.integer({ min: 0, max: 2_500 }),
    ),
    taxCount: fc.integer({ min: 0, max: 3 }),
    // Section 0 always counts; 1 and 2 are alternatives of one another, one chosen.
    chosenAlternative: fc.constantFrom('s1', 's2'),
    lines: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 100_000 }),
        price: priceText(currency),
        taxes: fc.subarray(TAX_NAMES),
        optional: fc.boolean(),
        chosen: fc.boolean(),
        sectionId: fc.constantFrom('s0', 's0', 's1', 's2'),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    deposit: fc.oneof(
      fc.integer({ min: 1, max: 100_000 }).map((thousandths) => `${(thousandths / 1000).toFixed(3)}%`),
      priceText(currency).filter((t) => !t.startsWith('-') && /[1-9]/.test(t)),
    ),
  }),
);

type Case = typeof quoteCase extends fc.Arbitrary<infer T> ? T : never;

function quoteOf(c: Case) {
  const rates: TaxRate[] = TAX_NAMES.slice(0, c.taxCount).map((name, i) => ({ name, rate: c.rates[i]! }));
  const sections: PricedSection[] = [
    { id: 's0', choice: null, chosen: true },
    { id: 's1', choice: 'c1', chosen: c.chosenAlternative === 's1' },
    { id: 's2', choice: 'c1', chosen: c.chosenAlternative === 's2' },
  ];
  const lines: PricedLine[] = c.lines.map((l) => ({
    quantity: l.quantity,
    unitPrice: parseAmount(l.price, c.currency),
    taxes: l.taxes.filter((t) => rates.some((r) => r.name === t)),
    optional: l.optional,
    chosen: l.chosen,
    sectionId: l.sectionId,
  }));
  const totals = computeTotals(lines, rates, sections);
  const counted = countedLines(lines, sections).map((l) => ({
    ...l,
    amount: Number(refRound(BigInt(l.quantity) * BigInt(l.unitPrice), 100n)),
  }));
  const terms = parseDeposit(c.deposit, c.currency)!;
  return { rates, totals, counted, terms };
}

/** The reference split: for each exact set of taxes among the counted lines, p × its net sum, rounded once. */
function referenceSplit(
  counted: ReadonlyArray<{ amount: number; taxes: readonly string[] }>,
  p: { num: bigint; den: bigint },
): Map<string, bigint> {
  const nets = new Map<string, bigint>();
  for (const line of counted) {
    const key = [...new Set(line.taxes)].sort().join('+');
    nets.set(key, (nets.get(key) ?? 0n) + BigInt(line.amount));
  }
  return new Map([...nets].map(([key, net]) => [key, refRound(p.num * net, p.den)]));
}

const asLines = (parts: ReadonlyArray<{ amount: number; taxes: string[] }>, sign = 1): PricedLine[] =>
  parts.map((p) => ({ quantity: 100, unitPrice: sign * p.amount, taxes: p.taxes, optional: false, chosen: true }));

describe('deposits and the chain (fast-check, BigInt reference)', () => {
  it('the deposit invoice: one line per set of taxes among the counted lines, p × their net sum, rounded half away from zero', () => {
    fc.assert(
      fc.property(quoteCase, (c) => {
        const { rates, totals, counted, terms } = quoteOf(c);
        fc.pre(totals.total > 0);
        const share = depositShare(terms, totals.total)!;
        // p is the percentage, or the fixed amount asked (never more than the total) ÷ the accepted total.
        const asked = terms.percent !== null ? null : BigInt(Math.min(terms.fixed!, totals.total));
        const p =
          terms.percent !== null
            ? { num: BigInt(terms.percent), den: 100_000n }
            : { num: asked!, den: BigInt(totals.total) };
        expect(share.num * p.den).toBe(p.num * share.den);
        const parts = depositSplit(counted, rates, share);
        const reference = referenceSplit(counted, p);
        const got = new Map(parts.map((part) => [[...part.taxes].sort().join('+'), BigInt(part.amount)]));
        expect(got).toEqual(new Map([...reference].filter(([, amount]) => amount !== 0n)));
        // Each set once, its taxes in the quote's order.
        for (const part of parts)
          expect(part.taxes).toEqual(rates.map((r) => r.name).filter((name) => part.taxes.includes(name)));
      }),
      { numRuns: 500 },
    );
  });

  it('the chain (the deposit, then the rest less the deposit) adds up to the accepted total within one smallest unit per tax; subtotals exactly', () => {
    fc.assert(
      fc.property(quoteCase, (c) => {
        const { rates, totals, counted, terms } = quoteOf(c);
        fc.pre(totals.total > 0);
        const parts = depositSplit(counted, rates, depositShare(terms, totals.total)!);
        const deposit = computeTotals(asLines(parts), rates);
        // The rest: the counted lines as they are, and each deposit line subtracted with the same taxes.
        const rest = computeTotals(
          [...counted.map((l) => ({ ...l, optional: false, chosen: true, sectionId: null })), ...asLines(parts, -1)],
          rates,
        );
        expect(deposit.subtotal + rest.subtotal).toBe(totals.subtotal);
        rates.forEach((tax, i) => {
          expect(
            Math.abs(deposit.taxes[i]!.amount + rest.taxes[i]!.amount - totals.taxes[i]!.amount),
          ).toBeLessThanOrEqual(1);
        });
        expect(Math.abs(deposit.total + rest.total - totals.total)).toBeLessThanOrEqual(rates.length);
      }),
      { numRuns: 500 },
    );
  });

  it('the deposit invoice’s total is the deposit shown, within the bound of its roundings (docs/invoices.md, "How close")', () => {
    fc.assert(
      fc.property(quoteCase, (c) => {
        const { rates, totals, counted, terms } = quoteOf(c);
        fc.pre(totals.total > 0);
        const share = depositShare(terms, totals.total)!;
        const shown = depositAmount(terms, totals.total)!;
        const parts = depositSplit(counted, rates, share);
        const invoiced = computeTotals(asLines(parts), rates).total;
        // Each set's line rounds once (½ each), each tax of the invoice once (½) and carries r × those roundings, the
        // quote's own tax rounding comes in scaled by p (p/2), and a percentage's deposit rounds once more (½).
        const sets = new Map<string, string[]>();
        for (const l of counted) sets.set([...new Set(l.taxes)].sort().join('+'), [...new Set(l.taxes)]);
        const m = BigInt(sets.size);
        const scale = 2n * 100_000n * share.den;
        let bound = (m + (terms.percent !== null ? 1n : 0n)) * 100_000n * share.den;
        for (const tax of rates) {
          const mt = BigInt([...sets.values()].filter((t) => t.includes(tax.name)).length);
          bound += BigInt(tax.rate) * mt * share.den + 100_000n * share.den + 100_000n * share.num;
        }
        const diff = BigInt(Math.abs(invoiced - shown));
        expect(diff * scale <= bound).toBe(true);
        // With one set of taxes and taxes of at most 30 %, that is one smallest unit per tax (and one more).
        if (sets.size === 1 && rates.every((r) => r.rate <= 30_000))
          expect(Number(diff)).toBeLessThanOrEqual(rates.length + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('the worked example of docs/invoices.md: 30 % of 1,750.84 CAD', () => {
    const rates = [
      { name: 'GST', rate: 5000 },
      { name: 'QST', rate: 9975 },
    ];
    const lines = [
      { quantity: 2316, unitPrice: 4250, taxes: ['GST', 'QST'] },
      { quantity: 800, unitPrice: 6500, taxes: ['GST', 'QST'] },
      { quantity: 100, unitPrice: 7500, taxes: ['GST'] },
      { quantity: 100, unitPrice: -5000, taxes: ['GST', 'QST'] },
    ].map((l) => ({ ...l, optional: false, chosen: true }));
    const quote = computeTotals(lines, rates);
    expect([quote.subtotal, quote.taxes.map((t) => t.amount), quote.total]).toEqual([152930, [7647, 14507], 175084]);
    const terms = parseDeposit('30%', 'CAD');
    expect(depositAmount(terms, quote.total)).toBe(52525);
    const parts = depositSplit(
      lines.map((l, i) => ({ amount: quote.amounts[i]!, taxes: l.taxes })),
      rates,
      depositShare(terms, quote.total)!,
    );
    expect(parts).toEqual([
      { taxes: ['GST', 'QST'], net: 145430, amount: 43629 },
      { taxes: ['GST'], net: 7500, amount: 2250 },
    ]);
    const deposit = computeTotals(asLines(parts), rates);
    expect([deposit.subtotal, deposit.taxes.map((t) => t.amount), deposit.total]).toEqual([45879, [2294, 4352], 52525]);
    const rest = computeTotals([...lines, ...asLines(parts, -1)], rates);
    expect([rest.subtotal, rest.taxes.map((t) => t.amount), rest.total]).toEqual([107051, [5353, 10155], 122559]);
    // A fixed deposit of 500.00: p = 500.00 ÷ 1,750.84.
    const fixed = depositSplit(
      lines.map((l, i) => ({ amount: quote.amounts[i]!, taxes: l.taxes })),
      rates,
      depositShare(parseDeposit('500.00', 'CAD'), quote.total)!,
    );
    expect(fixed.map((p) => p.amount)).toEqual([41531, 2142]);
    expect(computeTotals(asLines(fixed), rates).total).toBe(50000);
  });
});
