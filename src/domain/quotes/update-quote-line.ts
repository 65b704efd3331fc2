import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { checkLineFields, type LineFields } from './line-fields.js';
import { lineAmount, type TaxRate } from '../money.js';
import { findQuoteRow, requireDraft, storeTotals, type QuoteView } from './quote-view.js';

/**
 * Changes a draft's line: description, quantity, unit, unit price, taxes (kept when not given), optional and the
 * sender's tick. A measured line keeps where it came from. Answers the whole quote with its new totals.
 */
export async function updateQuoteLine({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; quoteId: string; lineId: string; line: LineFields }>): Promise<QuoteView> {
  const quote = await findQuoteRow(ctx.store.db, { workspaceId: input.workspaceId, quoteId: input.quoteId });
  requireDraft(quote);
  const values = checkLineFields(input.line, quote.currency, JSON.parse(quote.tax_rates) as TaxRate[]);
  return ctx.store.writer.write(async (trx) => {
    const row = await findQuoteRow(trx, { quoteId: quote.id });
    requireDraft(row);
    const updated = await trx
      .updateTable('quote_lines')
      .set({
        description: values.description,
        quantity: values.quantity,
        unit: values.unit,
        unit_price: values.unitPrice,
        amount: lineAmount(values.quantity, values.unitPrice),
        ...(values.taxes !== undefined ? { taxes: JSON.stringify(values.taxes) } : {}),
        ...(values.optional !== undefined ? { optional: values.optional ? 1 : 0 } : {}),
        ...(values.chosen !== undefined ? { chosen: values.chosen ? 1 : 0 } : {}),
      })
      .where('id', '=', input.lineId)
      .where('quote_id', '=', row.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      throw new AppError('quote_line_not_found', `No line ${input.lineId} on this quote`);
    return storeTotals(ctx, trx, row.id, nowIso(ctx));
  });
}
