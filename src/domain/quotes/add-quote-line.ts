import { nowIso, type VerbArgs } from '../context.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { checkLineFields, type LineFields } from './line-fields.js';
import type { TaxRate } from '../money.js';
import { insertLines } from './quote-rows.js';
import { findQuoteRow, requireDraft, storeTotals, type QuoteView } from './quote-view.js';

/** Adds a free line to a draft (a negative price is a discount, taxed the same way); answers the whole quote. */
export async function addQuoteLine({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; quoteId: string; line: LineFields }>): Promise<QuoteView> {
  const quote = await findQuoteRow(ctx.store.db, { workspaceId: input.workspaceId, quoteId: input.quoteId });
  requireDraft(quote);
  const rates = JSON.parse(quote.tax_rates) as TaxRate[];
  const values = checkLineFields(input.line, quote.currency, rates);
  // Without taxes given, a new line carries the workspace's taxes that are on by default (and on this quote).
  const defaults =
    values.taxes ??
    (await getWorkspaceSettings({ ctx, input: { workspaceId: quote.workspace_id } })).taxes
      .filter((t) => t.onByDefault && rates.some((r) => r.name === t.name))
      .map((t) => t.name);
  return ctx.store.writer.write(async (trx) => {
    const row = await findQuoteRow(trx, { quoteId: quote.id });
    requireDraft(row);
    const optional = values.optional ?? false;
    await insertLines(trx, row.id, [
      {
        description: values.description,
        quantity: values.quantity,
        unit: values.unit,
        unitPrice: values.unitPrice,
        taxes: defaults,
        optional,
        chosen: values.chosen ?? true,
        source: null,
      },
    ]);
    return storeTotals(ctx, trx, row.id, nowIso(ctx));
  });
}
