import type { WorkspaceVerbArgs } from '../context.js';
import { editDraft } from './edit-draft.js';
import { requireSection } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/**
 * Undoes choices on a draft: the choice each of `sectionIds` is in (every choice of the quote when none are named)
 * becomes ordinary sections again, whose lines all count. Answers the quote.
 */
export async function undoChoice({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; sectionIds?: string[] }>): Promise<QuoteView> {
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    const named = input.sectionIds ?? [];
    const groups: string[] = [];
    for (const id of named) {
      const section = await requireSection(trx, row.id, id);
      if (section.choice !== null) groups.push(section.choice);
    }
    await trx
      .updateTable('quote_sections')
      .set({ choice: null, recommended: 0, chosen: 1 })
      .where('quote_id', '=', row.id)
      .$if(named.length > 0, (q) => q.where('choice', 'in', groups.length > 0 ? groups : ['']))
      .execute();
  });
}
