import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { editDraft } from './edit-draft.js';
import { MAX_CHOICE, MIN_CHOICE, requireSection, sectionRows, tidyChoices } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/**
 * Offers two to four of a draft's sections as one choice ("choose one", docs/quotes.md): they share a new choice
 * group, `recommendedId` (one of them) is recommended and chosen, the others not chosen. A section that was in another
 * choice leaves it (a choice left with one section is no choice any more). Answers the quote.
 */
export async function offerChoice({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; sectionIds: string[]; recommendedId: string }>): Promise<QuoteView> {
  const ids = [...new Set(input.sectionIds)];
  if (ids.length < MIN_CHOICE || ids.length > MAX_CHOICE)
    throw new AppError('invalid_fields', `Offer ${MIN_CHOICE} to ${MAX_CHOICE} sections as one choice`, [
      { field: 'sections', code: 'invalid', message: `Pick ${MIN_CHOICE} to ${MAX_CHOICE} different sections` },
    ]);
  if (!ids.includes(input.recommendedId))
    throw new AppError('invalid_fields', 'The recommended section must be one of those offered', [
      { field: 'recommended', code: 'invalid', message: 'Recommend one of the sections offered' },
    ]);
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    for (const id of ids) await requireSection(trx, row.id, id);
    const used = new Set((await sectionRows(trx, row.id)).map((r) => r.choice).filter((c) => c !== null));
    let n = 1;
    while (used.has(`c${n}`)) n += 1;
    for (const id of ids) {
      const recommended = id === input.recommendedId ? 1 : 0;
      await trx
        .updateTable('quote_sections')
        .set({ choice: `c${n}`, recommended, chosen: recommended })
        .where('quote_id', '=', row.id)
        .where('id', '=', id)
        .execute();
    }
    await tidyChoices(trx, row.id);
  });
}
