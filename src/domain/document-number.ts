/**
 * How every sent document is numbered (docs/quotes.md, "Numbers"; docs/invoices.md, "Numbers"): a prefix and the
 * series' number, at least four digits (`Q-0007`, `INV-0003`, `CN-0001`, `INV-12345`). Each series has its own
 * counter per workspace, taken in the transaction of the send that uses it, so numbers follow send order with no gap
 * and no repeat.
 */
export function formatDocumentNumber(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(4, '0')}`;
}
