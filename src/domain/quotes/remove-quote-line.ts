import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { lockQuote, quoteStates } from './quote-states.js';
import { storeTotals, type QuoteView } from './quote-view.js';
import { requireEditable } from './save-quote.js';

/** Removes a draft's line; answers the quote with its new totals. */
export async function removeQuoteLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; lineId: string }>): Promise<QuoteView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
    requireEditable(row);
    const deleted = await trx
      .deleteFrom('quote_lines')
      .where('id', '=', input.lineId)
      .where('quote_id', '=', row.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0)
      throw new AppError('quote_line_not_found', `No line ${input.lineId} on this quote`);
    return storeTotals(ctx, trx, row.id, nowIso(ctx), quoteStates.moveFrom('edit'));
  });
}
