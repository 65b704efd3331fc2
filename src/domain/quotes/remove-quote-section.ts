import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { editDraft } from './edit-draft.js';
import { requireSection, sectionRows, tidyChoices } from './quote-sections.js';
import type { QuoteView } from './quote-view.js';

/**
 * Removes a draft's section. Its lines are kept: they move to the nearest section above it that is not an alternative
 * (below it when there is none above), after that section's own lines. The last section, and one whose lines have no
 * ordinary section to go to, cannot be removed (`last_section`). An alternative's choice left with one section is
 * no choice any more (`tidyChoices`). Answers the quote.
 */
export async function removeQuoteSection({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; sectionId: string }>): Promise<QuoteView> {
  return editDraft(ctx, input.quoteId, async (trx, row) => {
    await requireSection(trx, row.id, input.sectionId);
    const rows = await sectionRows(trx, row.id);
    if (rows.length === 1)
      throw new AppError('last_section', 'A quote keeps at least one section: rename this one instead');
    const at = rows.findIndex((r) => r.id === input.sectionId);
    const ordinary = (r: (typeof rows)[number]) => r.id !== input.sectionId && r.choice === null;
    const above = rows.slice(0, at).reverse().find(ordinary);
    const target = above ?? rows.slice(at + 1).find(ordinary);
    const lines = await trx
      .selectFrom('quote_lines')
      .select('id')
      .where('quote_id', '=', row.id)
      .where('section_id', '=', input.sectionId)
      .orderBy('position')
      .orderBy('id')
      .execute();
    if (lines.length > 0) {
      if (!target)
        throw new AppError(
          'last_section',
          'Its lines need a section that is not an alternative to move to: add one, or remove the lines first',
        );
      // After the target's own lines: positions past every line of the quote, in their order.
      const last = await trx
        .selectFrom('quote_lines')
        .select((eb) => eb.fn.max('position').as('max'))
        .where('quote_id', '=', row.id)
        .executeTakeFirst();
      const first = Number(last?.max ?? 0) + 1;
      for (const [i, line] of lines.entries()) {
        await trx
          .updateTable('quote_lines')
          .set({ section_id: target.id, position: first + i })
          .where('id', '=', line.id)
          .execute();
      }
    }
    await trx.deleteFrom('quote_sections').where('id', '=', input.sectionId).where('quote_id', '=', row.id).execute();
    await tidyChoices(trx, row.id);
  });
}
