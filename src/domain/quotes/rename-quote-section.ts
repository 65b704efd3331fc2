import type { WorkspaceVerbArgs } from '../context.js';
import { editDraft } from './edit-draft.js';
import { checkSectionTitle, requireSection } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/** Gives a draft's section a new heading (empty for none); answers the quote. */
export async function renameQuoteSection({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; sectionId: string; title: string }>): Promise<QuoteView> {
  const title = checkSectionTitle(input.title);
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    const section = await requireSection(trx, row.id, input.sectionId);
    await trx.updateTable('quote_sections').set({ title }).where('id', '=', section.id).execute();
  });
}
