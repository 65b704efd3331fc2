import type { WorkspaceVerbArgs } from '../context.js';
import { parseDeposit } from '../money.js';
import { editDraft } from './edit-draft.js';
import type { QuoteView } from './quote-view.js';

/**
 * Sets the deposit a draft asks (docs/quotes.md, "The deposit"): `30%`, `500.00` in the quote's currency, or `none`.
 * Answers the quote, its deposit computed from the lines that count.
 */
export async function setQuoteDeposit({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; deposit: string }>): Promise<QuoteView> {
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    const terms = parseDeposit(input.deposit, row.currency);
    await trx
      .updateTable('quotes')
      .set({ deposit_percent: terms?.percent ?? null, deposit_amount: terms?.fixed ?? null })
      .where('id', '=', row.id)
      .execute();
  });
}
