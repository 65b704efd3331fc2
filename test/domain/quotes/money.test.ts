import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeTotals,
  formatMoney,
  hundredthsOf,
  lineAmount,
  minorDigits,
  parseAmount,
  parseQuantity,
  parseRate,
  taxAmount,
  type PricedLine,
} from '../../../src/domain/money.js';

/**
 * The reference: exact rationals as BigInt numerator/denominator, rounded half away from zero by comparing twice
 * the remainder with the divisor through floor division of magnitudes (a different route from money.ts's divRound).
 */
function refRound(num: bigint, den: bigint): bigint {
  const negative = num < 0n !== den < 0n && num !== 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const magnitude = (2n * n + d) / (2n * d);
  return negative ? -magnitude : magnitude;
}

const quantity = fc.integer({ min: -10_000_000, max: 10_000_000 });
const price = fc.integer({ min: -100_000_000, max: 100_000_000 });
const rate = fc.integer({ min: 0, max: 100_000 });
const TAX_NAMES = ['GST', 'QST', 'Eco'];

const line = fc.record({
  quantity,
  unitPrice: price,
  taxes: fc.subarray(TAX_NAMES),
  optional: fc.boolean(),
  chosen: fc.boolean(),
});

describe('money', () => {
  it('a line amount is quantity × price rounded half away from zero to the smallest unit', () => {
    fc.assert(
      fc.property(quantity, price, (q, p) => {
        expect(lineAmount(q, p)).toBe(Number(refRound(BigInt(q) * BigInt(p), 100n)));
      }),
    );
    expect(lineAmount(150, 1)).toBe(2); // 1.5 cents
    expect(lineAmount(-150, 1)).toBe(-2);
    expect(lineAmount(149, 1)).toBe(1);
  });

  it('each tax is its rate (three decimals) × the sum of the lines it applies to, rounded once; total = subtotal + taxes', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.tuple(rate, rate, rate), (lines: PricedLine[], rates) => {
        const taxRates = TAX_NAMES.map((name, i) => ({ name, rate: rates[i]! }));
        const totals = computeTotals(lines, taxRates);
        const counted = lines.filter((l) => !l.optional || l.chosen);
        const amountOf = (l: PricedLine) => refRound(BigInt(l.quantity) * BigInt(l.unitPrice), 100n);
        const subtotal = counted.reduce((s, l) => s + amountOf(l), 0n);
        expect(totals.subtotal).toBe(Number(subtotal));
        let taxSum = 0n;
        taxRates.forEach((t, i) => {
          const base = counted.filter((l) => l.taxes.includes(t.name)).reduce((s, l) => s + amountOf(l), 0n);
          // rate% of base = base × rate / 1000 / 100
          const tax = refRound(base * BigInt(t.rate), 100_000n);
          taxSum += tax;
          expect(totals.taxes[i]).toEqual({ name: t.name, rate: t.rate, amount: Number(tax) });
        });
        expect(totals.total).toBe(Number(subtotal + taxSum));
        expect(totals.amounts).toEqual(lines.map((l) => Number(amountOf(l))));
      }),
    );
  });

  it('taxes a negative base (a discount larger than what it applies to) negatively', () => {
    expect(taxAmount(5000, -1000)).toBe(-50);
    expect(taxAmount(9975, -1)).toBe(0);
    expect(taxAmount(9975, -5013)).toBe(-500); // -500.04675
    expect(taxAmount(9975, -5015)).toBe(-500);
    // QST 9.975 % of $100.25 = 9.9999375 → $10.00
    expect(taxAmount(9975, 10025)).toBe(1000);
  });

  it('a discount line lowers the subtotal and the taxes of the lines it shares', () => {
    const totals = computeTotals(
      [
        { quantity: 100, unitPrice: 10_000, taxes: ['GST'], optional: false, chosen: false },
        { quantity: 100, unitPrice: -2_500, taxes: ['GST'], optional: false, chosen: false },
      ],
      [{ name: 'GST', rate: 5000 }],
    );
    expect(totals).toEqual({
      amounts: [10_000, -2_500],
      sections: [],
      subtotal: 7_500,
      taxes: [{ name: 'GST', rate: 5000, amount: 375 }],
      total: 7_875,
    });
  });

  it("parses decimal amounts exactly in each currency's smallest unit (USD 2, JPY 0, KWD 3)", () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(parseAmount('42.50', 'USD')).toBe(4250);
    expect(parseAmount('0.1', 'USD')).toBe(10);
    expect(parseAmount('-3', 'USD')).toBe(-300);
    expect(parseAmount('1200', 'JPY')).toBe(1200);
    expect(parseAmount('1.234', 'KWD')).toBe(1234);
    expect(() => parseAmount('1.5', 'JPY')).toThrow(/not an amount/);
    expect(() => parseAmount('1.005', 'USD')).toThrow(/not an amount/);
    expect(() => parseAmount('1e3', 'USD')).toThrow(/not an amount/);
    expect(parseAmount('1.000', 'USD')).toBe(100);
    fc.assert(
      fc.property(
        fc.constantFrom('USD', 'JPY', 'KWD'),
        fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
        (currency, minor) => {
          const digits = minorDigits(currency);
          const negative = minor < 0n;
          const abs = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
          const text = `${negative ? '-' : ''}${digits === 0 ? abs : `${abs.slice(0, -digits)}.${abs.slice(-digits)}`}`;
          expect(parseAmount(text, currency)).toBe(Number(minor));
        },
      ),
    );
  });

  it('rounds a quantity to two decimals half away from zero, from its decimal text', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.integer({ min: 0, max: 4 }),
        (units, extra) => {
          // units at scale 2 + extra decimals
          const scale = 2 + extra;
          const negative = units < 0n;
          const abs = (negative ? -units : units).toString().padStart(scale + 1, '0');
          const text = `${negative ? '-' : ''}${abs.slice(0, -scale)}.${abs.slice(-scale)}`;
          expect(parseQuantity(text)).toBe(Number(refRound(units, 10n ** BigInt(extra))));
        },
      ),
    );
    expect(parseQuantity('2.345')).toBe(235);
    expect(parseQuantity('-2.345')).toBe(-235);
    expect(parseQuantity('12')).toBe(1200);
  });

  it('rounds a measured figure to hundredths as its decimal digits say (2.675 → 2.68)', () => {
    expect(hundredthsOf(2.675)).toBe(268);
    expect(hundredthsOf(1.005)).toBe(101);
    expect(hundredthsOf(-1.005)).toBe(-101);
    expect(hundredthsOf(23.16)).toBe(2316);
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (h) => {
        expect(hundredthsOf(h / 100)).toBe(h);
      }),
    );
  });

  it('reads rates with up to three decimals, from 0 to 100 %', () => {
    expect(parseRate('9.975')).toBe(9975);
    expect(parseRate('5')).toBe(5000);
    expect(parseRate('0')).toBe(0);
    expect(parseRate('100')).toBe(100_000);
    expect(() => parseRate('9.9755')).toThrow();
    expect(() => parseRate('-1')).toThrow();
    expect(() => parseRate('100.001')).toThrow();
    fc.assert(
      fc.property(rate, (r) => {
        const text = `${Math.trunc(r / 1000)}.${String(r % 1000).padStart(3, '0')}`;
        expect(parseRate(text)).toBe(r);
      }),
    );
  });

  it('formats amounts with Intl in the locale and currency, exactly', () => {
    expect(formatMoney(123450, 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney(1200, 'JPY', 'ja-JP')).toBe('￥1,200');
    expect(formatMoney(1234, 'KWD', 'en-US')).toBe('KWD\u00a01.234');
    expect(formatMoney(-250, 'EUR', 'de-DE')).toBe('-2,50\u00a0€');
    // The largest safe amount survives: no float in between.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD', 'en-US')).toBe('$90,071,992,547,409.91');
  });
});
