import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { answeredFirst, answerOf, lockQuote, quoteStates } from './quote-states.js';
import { refreshQuoteOutcome } from './quote-outcome.js';
import { findQuoteRow, loadQuoteView, type QuoteView } from './quote-view.js';

/**
 * Takes a sent quote back: its link then says it was withdrawn, and it can no longer be accepted. Given any revision
 * of the quote, withdraws the one the customer's link shows (a draft revision being prepared stays a draft). Under
 * the quote's lock (quote-states.ts): a withdraw that loses the race to the customer's answer is told so
 * (`quote_final`, "the customer accepted it first") and records nothing.
 */
export async function withdrawQuote({ ctx, input }: WorkspaceVerbArgs<{ quoteId: string }>): Promise<QuoteView> {
  return ctx.store.writer.write(async (trx) => {
    const given = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
    const answer = await answerOf(trx, given.chain_id);
    if (answer) throw answeredFirst(answer.status);
    const shown = await trx
      .selectFrom('quotes')
      .selectAll()
      .where('chain_id', '=', given.chain_id)
      .where('status', 'in', quoteStates.moveFrom('withdraw'))
      .orderBy('revision', 'desc')
      .executeTakeFirst();
    if (!shown) {
      const why = given.status === 'draft' ? 'it was never sent' : `it is ${given.status}`;
      throw new AppError('quote_not_editable', `Only a sent quote can be withdrawn, and ${why}`);
    }
    const at = nowIso(ctx);
    const done = await trx
      .updateTable('quotes')
      .set({ status: 'withdrawn', withdrawn_at: at, updated_at: at })
      .where('id', '=', shown.id)
      .where('status', 'in', quoteStates.moveFrom('withdraw'))
      .executeTakeFirst();
    // The count decides: under the lock it is one; a zero means the customer's answer got in, and nothing is recorded.
    changedExactly(done, 1, () => answeredFirst('answered'));
    await refreshQuoteOutcome(trx, shown.chain_id);
    await recordAudit(trx, ctx, {
      action: 'quote.withdrawn',
      workspaceId: shown.workspace_id,
      targetIds: [shown.id, shown.lead_id],
      details: { revision: Number(shown.revision) },
    });
    return loadQuoteView(ctx, trx, await findQuoteRow(trx, { workspaceId: ctx.workspaceId, quoteId: shown.id }));
  });
}
