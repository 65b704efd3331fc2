import type { WorkspaceVerbArgs } from '../context.js';
import type { LineFields } from './line-fields.js';
import type { QuoteView } from './quote-view.js';
import { saveDraft } from './save-quote.js';

/**
 * Changes a draft's line: description, quantity, unit, unit price, taxes (kept when not given), optional and the
 * sender's tick. A measured line keeps where it came from. Answers the whole quote with its new totals.
 */
export async function updateQuoteLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; lineId: string; line: LineFields }>): Promise<QuoteView> {
  return ctx.store.writer.write((trx) =>
    saveDraft(
      ctx,
      trx,
      { workspaceId: ctx.workspaceId, quoteId: input.quoteId },
      { lines: [{ lineId: input.lineId, line: input.line }] },
    ),
  );
}
