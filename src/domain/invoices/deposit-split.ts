import { depositAmount, divRound, type DepositTerms, type TaxRate } from '../money.js';

/**
 * The deposit invoice's arithmetic (docs/invoices.md, "Deposits"). A deposit share p is the quote's percentage, or
 * for a fixed deposit A (the amount asked, never more than the total) p = A ÷ the accepted total; both taxes included.
 * The deposit invoice has one line per set of taxes among the quote's counted lines, each line's amount p × the net
 * sum of the counted lines carrying exactly that set, rounded half away from zero, computed exactly (BigInt, one
 * division). Its taxes are then the invoice's own, by the one rule of money.ts, so its total is the deposit shown to
 * within the roundings docs/invoices.md works through.
 */

/** p as an exact fraction. */
export interface DepositShare {
  num: bigint;
  den: bigint;
}

/** The share of the accepted total a deposit asks, or null when there is none to ask (no deposit, a total of 0). */
export function depositShare(terms: DepositTerms | null, acceptedTotal: number): DepositShare | null {
  if (!terms || (terms.percent === null && terms.fixed === null)) return null;
  if (terms.percent !== null) return terms.percent > 0 ? { num: BigInt(terms.percent), den: 100_000n } : null;
  if (acceptedTotal <= 0) return null;
  const asked = depositAmount(terms, acceptedTotal) ?? 0;
  return asked > 0 ? { num: BigInt(asked), den: BigInt(acceptedTotal) } : null;
}

/** A counted line of the accepted quote, as the split reads it. */
export interface SplitInput {
  amount: number;
  taxes: readonly string[];
}

export interface TaxSetPart {
  /** The set's tax names, in the quote's order of taxes; empty for lines that carry none. */
  taxes: string[];
  /** The net sum of the counted lines carrying exactly this set. */
  net: number;
  /** p × net, rounded half away from zero. */
  amount: number;
}

/** The tax sets of `lines`, in the order they first appear, each with its lines' net sum. */
export function netByTaxSet(
  lines: readonly SplitInput[],
  rates: readonly TaxRate[],
): Array<Omit<TaxSetPart, 'amount'>> {
  const order = new Map(rates.map((r, i) => [r.name, i]));
  const sets = new Map<string, { taxes: string[]; net: bigint }>();
  for (const line of lines) {
    const taxes = [...new Set(line.taxes)].sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99));
    const key = JSON.stringify(taxes);
    const set = sets.get(key) ?? { taxes, net: 0n };
    set.net += BigInt(line.amount);
    sets.set(key, set);
  }
  return [...sets.values()].map((s) => ({ taxes: s.taxes, net: Number(s.net) }));
}

/** One part per tax set: p × its net sum, rounded half away from zero. Parts that come to 0 are left out. */
export function depositSplit(
  lines: readonly SplitInput[],
  rates: readonly TaxRate[],
  share: DepositShare,
): TaxSetPart[] {
  return netByTaxSet(lines, rates)
    .map((set) => ({ ...set, amount: Number(divRound(share.num * BigInt(set.net), share.den)) }))
    .filter((part) => part.amount !== 0);
}
