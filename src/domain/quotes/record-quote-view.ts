import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { queueQuoteEmails } from '../notifications/quote-emails.js';
import { lockQuoteByToken, quoteStates } from './quote-states.js';

/**
 * The customer's page reports that it was shown in a browser (its script posts this). The page must not call it
 * for a signed-in member of the workspace. The first view marks a sent quote viewed and queues the sender's "viewed"
 * email in the same transaction (`queueQuoteEmails`); each view adds to the count. Answers whether this was the first.
 */
export async function recordQuoteView({ ctx, input }: VerbArgs<{ token: string }>): Promise<{
  quoteId: string;
  number: string | null;
  first: boolean;
  sentByUserId: string | null;
  workspaceId: string;
}> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuoteByToken(ctx, trx, input.token);
    if (!quoteStates.allows('view', row.status)) {
      return {
        quoteId: row.id,
        number: row.number,
        first: false,
        sentByUserId: row.sent_by_user_id,
        workspaceId: row.workspace_id,
      };
    }
    const at = nowIso(ctx);
    const first = row.viewed_at === null;
    await trx
      .updateTable('quotes')
      .set((eb) => ({ status: 'viewed', view_count: eb('view_count', '+', 1), ...(first ? { viewed_at: at } : {}) }))
      .where('id', '=', row.id)
      .where('status', 'in', quoteStates.moveFrom('view'))
      .execute();
    if (first) {
      await recordAudit(trx, ctx, {
        action: 'quote.viewed',
        workspaceId: row.workspace_id,
        targetIds: [row.id, row.lead_id],
      });
      await queueQuoteEmails(trx, ctx, {
        event: 'viewed',
        quoteId: row.id,
        workspaceId: row.workspace_id,
        sentByUserId: row.sent_by_user_id,
        customerEmail: null,
      });
    }
    return {
      quoteId: row.id,
      number: row.number,
      first,
      sentByUserId: row.sent_by_user_id,
      workspaceId: row.workspace_id,
    };
  });
}
