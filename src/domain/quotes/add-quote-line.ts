import type { WorkspaceVerbArgs } from '../context.js';
import type { LineFields } from './line-fields.js';
import type { QuoteView } from './quote-view.js';
import { saveDraft } from './save-quote.js';

/** Adds a free line to a draft (a negative price is a discount, taxed the same way); answers the whole quote. */
export async function addQuoteLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; line: LineFields }>): Promise<QuoteView> {
  // Without taxes given, the new line carries the workspace's taxes that are on by default (and on this quote).
  return ctx.store.writer.write((trx) =>
    saveDraft(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId }, { newLine: input.line }),
  );
}
