import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { setQuoteLineIntegers } from '../../storage/quote-lines-sql.js';
import { lockQuote, quoteStates } from './quote-states.js';
import { findQuoteRow, loadLines, storeTotals, type QuoteView } from './quote-view.js';
import { requireEditable } from './save-quote.js';

/**
 * Puts a draft's lines in the given order: `lineIds` names every line once (the builder sends its whole list, so
 * two people reordering at once cannot interleave into an order neither chose).
 */
export async function reorderQuoteLines({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; lineIds: string[] }>): Promise<QuoteView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
    requireEditable(row);
    const current = (await trx.selectFrom('quote_lines').select('id').where('quote_id', '=', row.id).execute()).map(
      (l) => l.id,
    );
    const same =
      input.lineIds.length === current.length &&
      new Set(input.lineIds).size === current.length &&
      input.lineIds.every((id) => current.includes(id));
    if (!same) {
      throw new AppError('invalid_fields', 'Give every line of the quote once, in the new order', [
        { field: 'lineIds', code: 'invalid', message: 'The lines changed meanwhile; reload and try again' },
      ]);
    }
    await setQuoteLineIntegers(
      trx,
      row.id,
      'position',
      input.lineIds.map((id, position) => ({ id, value: position })),
    );
    return storeTotals(ctx, trx, row.id, nowIso(ctx), quoteStates.moveFrom('edit'));
  });
}

/** Moves one line up or down by one place (the builder's arrow buttons, which work without scripts). */
export async function moveQuoteLine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; lineId: string; direction: 'up' | 'down' }>): Promise<QuoteView> {
  const row = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  // In the order shown (by section, then within it): a line moves within its section, never past its heading.
  const lines = await loadLines(ctx.store.db, row.id);
  const ids = lines.map((l) => l.id);
  const at = ids.indexOf(input.lineId);
  if (at < 0) throw new AppError('quote_line_not_found', `No line ${input.lineId} on this quote`);
  const to = input.direction === 'up' ? at - 1 : at + 1;
  if (to >= 0 && to < ids.length && lines[to]!.sectionId === lines[at]!.sectionId)
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
  return reorderQuoteLines({ ctx, input: { quoteId: row.id, lineIds: ids } });
}
