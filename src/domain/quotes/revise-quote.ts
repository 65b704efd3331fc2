import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { copyLines, freshDraft } from './quote-rows.js';
import { answeredFirst, answerOf, lockQuote, quoteStates } from './quote-states.js';
import { addDays, findQuoteRow, loadQuoteView, todayIn, type QuoteView } from './quote-view.js';

/**
 * Revise: a sent quote is never changed, so this makes a new draft revision of the same number (`Q-0007 rev 2`) with
 * the same lines and details; sending it replaces the earlier revision on the customer's link. A quote that already
 * has a draft revision answers that draft (Revise pressed twice makes one). Accepted and declined quotes are final:
 * copy them instead. A valid-until that has passed starts again from today.
 */
export async function reviseQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; userId?: string | null }>): Promise<QuoteView> {
  const first = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: first.workspace_id } });
  return ctx.store.writer.write(async (trx) => {
    // Under the quote's lock (quote-states.ts): an answer that got in first makes the quote final, and two Revise
    // presses at once make one draft.
    await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: first.id });
    const answer = await answerOf(trx, first.chain_id);
    if (answer) throw answeredFirst(answer.status);
    const latest = await trx
      .selectFrom('quotes')
      .selectAll()
      .where('chain_id', '=', first.chain_id)
      .orderBy('revision', 'desc')
      .executeTakeFirstOrThrow();
    if (latest.status === 'draft' && latest.number !== null) return loadQuoteView(ctx, trx, latest);
    quoteStates.requireMove('revise', latest.status, (status) =>
      status === 'draft'
        ? new AppError('quote_not_editable', 'A draft is edited as it is; revise a quote once it was sent')
        : new AppError('quote_final', `${latest.number} was ${status}, which is final: copy it to start a new quote`),
    );
    const at = nowIso(ctx);
    const today = todayIn(settings.timeZone, ctx.clock.now());
    const id = newId('quo');
    await trx
      .insertInto('quotes')
      .values({
        ...latest,
        id,
        revision: Number(latest.revision) + 1,
        status: 'draft',
        valid_until: latest.valid_until < today ? addDays(today, settings.quoteValidDays) : latest.valid_until,
        ...freshDraft(at, input.userId),
      })
      .execute();
    await copyLines(trx, latest.id, id);
    await recordAudit(trx, ctx, {
      action: 'quote.revised',
      workspaceId: latest.workspace_id,
      targetIds: [id, latest.id],
      details: { revision: Number(latest.revision) + 1 },
    });
    return loadQuoteView(ctx, trx, await findQuoteRow(trx, { workspaceId: ctx.workspaceId, quoteId: id }));
  });
}
