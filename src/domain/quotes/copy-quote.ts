import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { newId } from '../ids.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { copyLines, freshDraft } from './quote-rows.js';
import { addDays, findQuoteRow, loadQuoteView, todayIn, type QuoteView } from './quote-view.js';

/**
 * Copy: a new draft (no number, revision 1, its own link when sent) with a quote's customer, details and lines, for
 * the same lead; the way on from an accepted or declined quote, which is final. It keeps the original's currency and
 * taxes, so its prices mean what they meant; valid-until starts again from today.
 */
export async function copyQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; userId?: string | null }>): Promise<QuoteView> {
  const source = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: source.workspace_id } });
  const id = newId('quo');
  const at = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    const row = await findQuoteRow(trx, { workspaceId: ctx.workspaceId, quoteId: source.id });
    await trx
      .insertInto('quotes')
      .values({
        ...row,
        id,
        chain_id: id,
        number: null,
        revision: 1,
        status: 'draft',
        valid_until: addDays(todayIn(settings.timeZone, ctx.clock.now()), settings.quoteValidDays),
        ...freshDraft(at, input.userId),
      })
      .execute();
    await copyLines(trx, row.id, id);
    await recordAudit(trx, ctx, {
      action: 'quote.created',
      workspaceId: row.workspace_id,
      targetIds: [id, row.lead_id, row.id],
      details: { copy: true, total: Number(row.total) },
    });
    return loadQuoteView(ctx, trx, await findQuoteRow(trx, { workspaceId: ctx.workspaceId, quoteId: id }));
  });
}
