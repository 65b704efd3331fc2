import { AppError } from './errors.js';

/**
 * Money for quotes (docs/quotes.md, "Money"). No floating point ever holds an amount:
 * - an amount is an integer in the currency's smallest unit (cents; yen; fils, a thousandth of a dinar);
 * - a quantity is an integer number of hundredths (2.5 m² is 250);
 * - a rate is an integer number of thousandths of a percent (QST 9.975 % is 9975).
 * Products are computed as BigInt and divided once, rounding half away from zero.
 */

/**
 * One formatter per key, made on first use: making an `Intl.NumberFormat` costs far more than formatting with one,
 * and a 300-line quote's page formats over a thousand amounts (docs/performance.md, "Quotes at scale").
 */
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: { currency?: string }): Intl.NumberFormat {
  const key = `${locale}\u0000${options.currency ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    // Keys are checked locales and currencies (workspace settings); the bound only guards against surprises.
    if (formats.size >= 1000) formats.clear();
    format = new Intl.NumberFormat(
      locale,
      options.currency === undefined ? { maximumFractionDigits: 2 } : { style: 'currency', currency: options.currency },
    );
    formats.set(key, format);
  }
  return format;
}

/** Each currency's digits once asked: `resolvedOptions()` builds a new object every call, and every amount asks. */
const currencyDigits = new Map<string, number>();

/** Digits after the decimal point of a currency's amounts, as ISO 4217 (through Intl) says: USD 2, JPY 0, KWD 3. */
export function minorDigits(currency: string): number {
  let digits = currencyDigits.get(currency);
  if (digits === undefined) {
    digits = numberFormat('en', { currency }).resolvedOptions().maximumFractionDigits ?? 2;
    if (currencyDigits.size >= 1000) currencyDigits.clear();
    currencyDigits.set(currency, digits);
  }
  return digits;
}

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code this server knows, upper case. */
export function checkCurrency(value: string, field = 'currency'): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) {
    throw new AppError('invalid_fields', `"${value.slice(0, 20)}" is not an ISO 4217 currency code`, [
      { field, code: 'invalid', message: 'Give a three-letter currency code, e.g. USD, EUR, CAD, JPY' },
    ]);
  }
  return code;
}

/** A BCP 47 locale this server can format numbers in, in its canonical spelling (`en-US`, `fr-CA`). */
export function checkLocale(value: string, field = 'locale'): string {
  const text = value.trim();
  let canonical: string[] = [];
  try {
    canonical = Intl.getCanonicalLocales(text);
  } catch {
    canonical = [];
  }
  if (text === '' || canonical.length !== 1 || Intl.NumberFormat.supportedLocalesOf(canonical).length !== 1) {
    throw new AppError('invalid_fields', `"${value.slice(0, 40)}" is not a locale this server knows`, [
      { field, code: 'invalid', message: 'Give a language tag, e.g. en-US, en-CA, fr-CA, de-DE' },
    ]);
  }
  return canonical[0]!;
}

/** a ÷ b rounded half away from zero (b > 0). */
export function divRound(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a % b;
  if (2n * (r < 0n ? -r : r) >= b) return a < 0n ? q - 1n : q + 1n;
  return q;
}

function toSafe(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new AppError('invalid_fields', `The ${what} is too large`);
  }
  return Number(value);
}

/**
 * A decimal string as an integer count of 10^-scale (exact, no float): "42.50" at scale 2 is 4250. More digits
 * than `scale` round half away from zero when `round` is set, else the text is refused (undefined).
 */
export function parseDecimal(text: string, scale: number, round: boolean): bigint | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const kept = fraction.slice(0, scale).padEnd(scale, '0');
  const dropped = fraction.slice(scale);
  if (!round && /[1-9]/.test(dropped)) return undefined;
  let units = BigInt(`${whole || '0'}${kept}`);
  if (round && dropped.length > 0 && dropped[0]! >= '5') units += 1n;
  return sign === '-' ? -units : units;
}

/** An integer count of 10^-scale as a plain decimal string: 4250 at scale 2 is "42.50". */
export function formatDecimal(units: number | bigint, scale: number): string {
  const n = BigInt(units);
  const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return n < 0n ? `-${text}` : text;
}

/** "42.50" in the currency's smallest unit (4250 cents; "1200" yen is 1200). More decimals than it has are refused. */
export function parseAmount(text: string, currency: string, field = 'price'): number {
  const digits = minorDigits(currency);
  const units = parseDecimal(text, digits, false);
  if (units === undefined) {
    throw new AppError('invalid_fields', `"${text.slice(0, 30)}" is not an amount in ${currency}`, [
      {
        field,
        code: 'invalid',
        message: `Give an amount such as ${formatDecimal(
          4250 * 10 ** Math.max(0, digits - 2),
          digits,
        )} (${digits} decimals at most)`,
      },
    ]);
  }
  return toSafe(units, 'amount');
}

/** An amount in the smallest unit as the decimal string `parseAmount` reads ("42.50"). */
export function amountText(minor: number, currency: string): string {
  return formatDecimal(minor, minorDigits(currency));
}

/** A quantity as hundredths: "2.345" is 235 (rounded to 2 decimals, half away from zero, before it is priced). */
export function parseQuantity(text: string, field = 'quantity'): number {
  const units = parseDecimal(text, 2, true);
  if (units === undefined) {
    throw new AppError('invalid_fields', `"${text.slice(0, 30)}" is not a quantity`, [
      { field, code: 'invalid', message: 'Give a number, e.g. 12 or 23.16' },
    ]);
  }
  return toSafe(units, 'quantity');
}

/** A percentage as thousandths of a percent: "9.975" (or "9.975 %") is 9975; 0 to 100 with at most 3 decimals. */
export function parseRate(text: string, field = 'rate', max = 100): number {
  // Typed as people write a rate: "5%", "5 %" and "9.975 %" are the same as "5" and "9.975".
  const units = parseDecimal(text.trim().replace(/\s*%$/, ''), 3, false);
  if (units === undefined || units < 0n || units > BigInt(max) * 1000n) {
    throw new AppError(
      'invalid_fields',
      `"${text.slice(0, 30)}" is not a percentage from 0 to ${max} with up to 3 decimals`,
      [{ field, code: 'invalid', message: `Give a percentage from 0 to ${max}, e.g. 5 or 9.975` }],
    );
  }
  return Number(units);
}

/** A rate (thousandths of a percent) as a person types it: 9975 is "9.975", 5000 is "5". */
export function rateText(thousandths: number): string {
  return formatDecimal(thousandths, 3).replace(/\.?0+$/, '');
}

/**
 * A measured quantity (a float from the scan reader, not money) rounded to hundredths, half away from zero. The
 * float is first read as its 15 significant digits, so 2.675 (stored as 2.67499999…) rounds to 2.68 as written.
 */
export function hundredthsOf(value: number): number {
  if (!Number.isFinite(value)) throw new AppError('invalid_fields', 'The quantity is not a number');
  const text = Math.abs(value).toPrecision(15);
  const [mantissa, exponent = '0'] = text.split('e');
  const plain = Number(exponent) === 0 ? mantissa! : Math.abs(value).toFixed(20).replace(/0+$/, '');
  const units = parseDecimal(plain, 2, true)!;
  return toSafe(value < 0 ? -units : units, 'quantity');
}

/**
 * A line's amount: quantity (hundredths) × unit price (smallest unit), rounded half away from zero to the smallest
 * unit.
 */
export function lineAmount(quantityHundredths: number, unitPrice: number): number {
  return toSafe(divRound(BigInt(quantityHundredths) * BigInt(unitPrice), 100n), 'amount');
}

/**
 * A tax: rate (thousandths of a percent) × base, rounded once, half away from zero; a negative base gives a negative
 * tax.
 */
export function taxAmount(rateThousandths: number, base: number): number {
  return toSafe(divRound(BigInt(rateThousandths) * BigInt(base), 100_000n), 'tax');
}

export interface PricedLine {
  quantity: number;
  unitPrice: number;
  /** Names of the taxes the line carries. */
  taxes: readonly string[];
  optional: boolean;
  chosen: boolean;
  /** The line's section (docs/quotes.md, "Sections and alternatives"); absent or null: a section that always counts. */
  sectionId?: string | null;
}

/**
 * What counting needs of a quote's section: whether it is an alternative (`choice`), and whether it is the one taken.
 */
export interface PricedSection {
  id: string;
  /** The choice group's key, shared by alternatives of one another; null for a section that always counts. */
  choice: string | null;
  chosen: boolean;
}

export interface TaxRate {
  name: string;
  /** Thousandths of a percent. */
  rate: number;
}

export interface Totals {
  /**
   * Each line's amount, in the lines' order (a line that does not count has its amount too, it just does not count).
   */
  amounts: number[];
  /**
   * Each section's subtotal, in the sections' order: the amounts of its lines that count within it (not optional, or
   * ticked), whether or not the section is the alternative taken, so alternatives can be compared.
   */
  sections: Array<{ id: string; subtotal: number }>;
  subtotal: number;
  taxes: Array<{ name: string; rate: number; amount: number }>;
  total: number;
}

/**
 * THE rule of what a quote charges for (docs/quotes.md, "What counts"): a line counts unless it is optional and not
 * ticked, or it sits in an alternative that is not the one taken. Totals, the deposit, the acceptance and invoices all
 * count with this one function.
 */
export function counts(
  line: Pick<PricedLine, 'optional' | 'chosen' | 'sectionId'>,
  sections: readonly PricedSection[] = [],
): boolean {
  if (line.optional && !line.chosen) return false;
  if (line.sectionId === undefined || line.sectionId === null) return true;
  const section = sections.find((s) => s.id === line.sectionId);
  return !section || section.choice === null || section.chosen;
}

/** The lines of a quote that count (`counts`), in their order. */
export function countedLines<L extends PricedLine>(lines: readonly L[], sections: readonly PricedSection[] = []): L[] {
  const taken = takenBySection(sections);
  return lines.filter((l) => countsIn(l, taken));
}

/** Whether each section's lines count as far as the section goes (an alternative not taken does not). */
function takenBySection(sections: readonly PricedSection[]): Map<string, boolean> {
  return new Map(sections.map((s) => [s.id, s.choice === null || s.chosen]));
}

function countsIn(line: Pick<PricedLine, 'optional' | 'chosen' | 'sectionId'>, taken: Map<string, boolean>): boolean {
  if (line.optional && !line.chosen) return false;
  if (line.sectionId === undefined || line.sectionId === null) return true;
  return taken.get(line.sectionId) ?? true;
}

/**
 * Subtotal, taxes and total of lines (and each section's subtotal). Each tax is applied once to the sum of the amounts
 * of the counted lines that carry it (not line by line), so a quote's tax is what its rate says of what it applies to.
 */
export function computeTotals(
  lines: readonly PricedLine[],
  rates: readonly TaxRate[],
  sections: readonly PricedSection[] = [],
): Totals {
  const taken = takenBySection(sections);
  const amounts = lines.map((l) => lineAmount(l.quantity, l.unitPrice));
  const bySection = new Map(sections.map((s) => [s.id, 0n]));
  let subtotal = 0n;
  lines.forEach((l, i) => {
    const amount = BigInt(amounts[i]!);
    const id = l.sectionId ?? undefined;
    if (id !== undefined && bySection.has(id) && !(l.optional && !l.chosen))
      bySection.set(id, bySection.get(id)! + amount);
    if (countsIn(l, taken)) subtotal += amount;
  });
  const taxes = rates.map((tax) => {
    let base = 0n;
    lines.forEach((l, i) => {
      if (countsIn(l, taken) && l.taxes.includes(tax.name)) base += BigInt(amounts[i]!);
    });
    return { name: tax.name, rate: tax.rate, amount: taxAmount(tax.rate, toSafe(base, 'amount')) };
  });
  const total = subtotal + taxes.reduce((sum, t) => sum + BigInt(t.amount), 0n);
  return {
    amounts,
    sections: sections.map((s) => ({ id: s.id, subtotal: toSafe(bySection.get(s.id)!, 'subtotal') })),
    subtotal: toSafe(subtotal, 'subtotal'),
    taxes,
    total: toSafe(total, 'total'),
  };
}

/**
 * A deposit a quote asks (docs/quotes.md, "The deposit"): a percentage of the total (thousandths of a percent, as rates
 * are kept) or a fixed amount in the smallest unit, taxes included. At most one of the two is set.
 */
export interface DepositTerms {
  percent: number | null;
  fixed: number | null;
}

/**
 * The deposit due on a total (taxes included), from the lines that count: a percentage rounded once, half away from
 * zero; a fixed amount as asked, but never more than the total (the customer may take a cheaper alternative). Never
 * below zero. Null when the quote asks none.
 */
export function depositAmount(terms: DepositTerms | null, total: number): number | null {
  if (!terms || (terms.percent === null && terms.fixed === null)) return null;
  const base = BigInt(Math.max(total, 0));
  const due = terms.percent !== null ? divRound(base * BigInt(terms.percent), 100_000n) : BigInt(terms.fixed!);
  return toSafe(due < base ? (due < 0n ? 0n : due) : base, 'deposit');
}

/**
 * A deposit as a person types it: `30%` (0 to 100, up to 3 decimals), `500.00` (an amount in the currency, above 0) or
 * `none` (also an empty text). Refusals name `field`.
 */
export function parseDeposit(text: string, currency: string, field = 'deposit'): DepositTerms | null {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'none' || value === 'off') return null;
  const refuse = (): never => {
    throw new AppError(
      'invalid_fields',
      `"${text.slice(0, 30)}" is not a deposit: give 30%, an amount such as 500.00, or none`,
      [{ field, code: 'invalid', message: 'Give a percentage such as 30%, an amount such as 500.00, or none' }],
    );
  };
  if (value.endsWith('%')) {
    const units = parseDecimal(value.slice(0, -1).trim(), 3, false);
    if (units === undefined || units <= 0n || units > 100_000n) return refuse();
    return { percent: Number(units), fixed: null };
  }
  const units = parseDecimal(value, minorDigits(currency), false);
  if (units === undefined || units <= 0n || units > BigInt(Number.MAX_SAFE_INTEGER)) return refuse();
  return { percent: null, fixed: Number(units) };
}

/** A deposit as `parseDeposit` reads it back: `30%`, `500.00`, or `none`. */
export function depositText(terms: DepositTerms | null, currency: string): string {
  if (!terms || (terms.percent === null && terms.fixed === null)) return 'none';
  return terms.percent !== null ? `${rateText(terms.percent)}%` : amountText(terms.fixed!, currency);
}

/** An amount as a person reads it, in the workspace's locale: `$1,234.50`, `1.234,50 €`, `¥1,200`. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  // A decimal string keeps the amount exact (Intl reads strings as decimals, not floats).
  return numberFormat(locale, { currency }).format(amountText(minor, currency) as unknown as number);
}

/** A quantity (hundredths) as a person reads it in the workspace's locale: 2316 is "23.16", 200 is "2". */
export function formatQuantity(hundredths: number, locale: string): string {
  return numberFormat(locale, {}).format(formatDecimal(hundredths, 2) as unknown as number);
}
