import type { WorkspaceVerbArgs } from '../context.js';
import type { QuoteDetails } from './quote-details.js';
import type { QuoteView } from './quote-view.js';
import { saveDraft } from './save-quote.js';

export type { QuoteDetails } from './quote-details.js';

/** Saves a draft's title, note, terms, valid-until and customer details; every refusal at once, next to its field. */
export async function updateQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; details: QuoteDetails }>): Promise<QuoteView> {
  return ctx.store.writer.write((trx) =>
    saveDraft(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId }, { details: input.details }),
  );
}
