import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { editDraft } from './edit-draft.js';
import { requireSection } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/** Moves a draft's line to another of its sections, after that section's lines; answers the quote. */
export async function moveLineToSection({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; lineId: string; sectionId: string }>): Promise<QuoteView> {
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    const line = await trx
      .selectFrom('quote_lines')
      .select(['id', 'section_id'])
      .where('quote_id', '=', row.id)
      .where('id', '=', input.lineId)
      .executeTakeFirst();
    if (!line) throw new AppError('quote_line_not_found', `No line ${input.lineId.slice(0, 80)} on this quote`);
    const section = await requireSection(trx, row.id, input.sectionId);
    if (line.section_id === section.id) return;
    const last = await trx
      .selectFrom('quote_lines')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('quote_id', '=', row.id)
      .executeTakeFirst();
    await trx
      .updateTable('quote_lines')
      .set({ section_id: section.id, position: Number(last?.max ?? 0) + 1 })
      .where('id', '=', line.id)
      .execute();
  });
}
