import type { WorkspaceVerbArgs } from '../context.js';
import { editDraft } from './edit-draft.js';
import { checkSectionTitle, insertSections } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/** Adds a section after a draft's last one, headed `title` (empty for none); answers the quote. */
export async function addQuoteSection({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; title: string }>): Promise<QuoteView> {
  const title = checkSectionTitle(input.title);
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    await insertSections(trx, row.id, [{ title }]);
  });
}
