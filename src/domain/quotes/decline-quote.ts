import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError } from '../errors.js';
import { queueQuoteEmails } from '../notifications/quote-emails.js';
import { checkOptionalText } from '../settings/quote-settings.js';
import { requireAnswerable } from './answer-rules.js';
import { moveLeadForQuote } from './quote-rows.js';
import { refreshQuoteOutcome } from './quote-outcome.js';
import { lockQuoteByToken, quoteStates } from './quote-states.js';
import { findQuoteRow, loadQuoteView, timeZoneOf, type QuoteView } from './quote-view.js';

/**
 * The customer declines the revision their link shows, with an optional reason. Final; the lead moves to `lost`
 * ("by customer") when its pipeline has that stage, no quote of the lead is accepted and the lead is not won yet. The
 * sender's notice is queued in the same transaction (`queueQuoteEmails`). Answers the quote and its sender.
 */
export async function declineQuote({
  ctx,
  input,
}: VerbArgs<{ token: string; revision: number; reason?: string }>): Promise<{
  quote: QuoteView;
  sentByUserId: string | null;
}> {
  const reason =
    input.reason === undefined ? null : checkOptionalText(input.reason, 'reason', 'The reason', 2000, true);
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuoteByToken(ctx, trx, input.token);
    requireAnswerable(row, input.revision, await timeZoneOf(trx, row.workspace_id), ctx.clock.now(), 'decline');
    const at = nowIso(ctx);
    const done = await trx
      .updateTable('quotes')
      .set({ status: 'declined', declined_at: at, decline_reason: reason, updated_at: at })
      .where('id', '=', row.id)
      .where('status', 'in', quoteStates.moveFrom('decline'))
      .executeTakeFirst();
    changedExactly(done, 1, () => new AppError('quote_final', 'This quote was already answered'));
    await refreshQuoteOutcome(trx, row.chain_id);
    await moveLeadForQuote(ctx, trx, { leadId: row.lead_id, to: 'lost', by: { userId: null, label: 'customer' }, at });
    await queueQuoteEmails(trx, ctx, {
      event: 'declined',
      quoteId: row.id,
      workspaceId: row.workspace_id,
      sentByUserId: row.sent_by_user_id,
      customerEmail: null,
    });
    await recordAudit(trx, ctx, {
      action: 'quote.declined',
      workspaceId: row.workspace_id,
      targetIds: [row.id, row.lead_id],
      details: { revision: Number(row.revision), total: Number(row.total) },
    });
    return {
      quote: await loadQuoteView(ctx, trx, await findQuoteRow(trx, { workspaceId: row.workspace_id, quoteId: row.id })),
      sentByUserId: row.sent_by_user_id,
    };
  });
}
