import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { findQuoteRow, loadQuoteView, type QuoteView } from './quote-view.js';

/**
 * Takes a sent quote back: its link then says it was withdrawn, and it can no longer be accepted. Given any revision
 * of the quote, withdraws the one the customer's link shows (a draft revision being prepared stays a draft).
 */
export async function withdrawQuote({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; quoteId: string }>): Promise<QuoteView> {
  return ctx.store.writer.write(async (trx) => {
    const given = await findQuoteRow(trx, { workspaceId: input.workspaceId, quoteId: input.quoteId });
    const shown = await trx
      .selectFrom('quotes')
      .selectAll()
      .where('chain_id', '=', given.chain_id)
      .where('status', 'in', ['sent', 'viewed'])
      .orderBy('revision', 'desc')
      .executeTakeFirst();
    if (!shown) {
      const why = given.status === 'draft' ? 'it was never sent' : `it is ${given.status}`;
      throw new AppError(
        given.status === 'accepted' || given.status === 'declined' ? 'quote_final' : 'quote_not_editable',
        `Only a sent quote can be withdrawn, and ${why}`,
      );
    }
    const at = nowIso(ctx);
    await trx
      .updateTable('quotes')
      .set({ status: 'withdrawn', withdrawn_at: at, updated_at: at })
      .where('id', '=', shown.id)
      .where('status', 'in', ['sent', 'viewed'])
      .execute();
    await recordAudit(trx, ctx, {
      action: 'quote.withdrawn',
      workspaceId: shown.workspace_id,
      targetIds: [shown.id, shown.lead_id],
      details: { revision: Number(shown.revision) },
    });
    return loadQuoteView(ctx, trx, await findQuoteRow(trx, { quoteId: shown.id }));
  });
}
