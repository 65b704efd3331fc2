import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { editDraft } from './edit-draft.js';
import { requireSection, sectionRows, storeSectionOrder } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/**
 * Moves a draft's section, with its lines, one place up or down (the builder's arrows), or to a place counted from 1
 * (`quotes section move … --position N`); a place past the end is the end. Answers the quote.
 */
export async function moveQuoteSection({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; sectionId: string; to: 'up' | 'down' | number }>): Promise<QuoteView> {
  if (typeof input.to === 'number' && (!Number.isInteger(input.to) || input.to < 1))
    throw new AppError('invalid_fields', 'A section’s place counts from 1', [
      { field: 'position', code: 'invalid', message: 'A whole number from 1' },
    ]);
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    await requireSection(trx, row.id, input.sectionId);
    const rows = await sectionRows(trx, row.id);
    const ids = rows.map((r) => r.id);
    const at = ids.indexOf(input.sectionId);
    const wanted = input.to === 'up' ? at - 1 : input.to === 'down' ? at + 1 : input.to - 1;
    const to = Math.max(0, Math.min(ids.length - 1, wanted));
    ids.splice(at, 1);
    ids.splice(to, 0, input.sectionId);
    await storeSectionOrder(trx, row.id, ids, new Map(rows.map((r) => [r.id, Number(r.position)])));
  });
}
