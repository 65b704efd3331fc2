import type { Selectable, Transaction } from 'kysely';
import type { QuoteTable, Schema } from '../../storage/schema.js';
import { nowIso, type WorkspaceContext } from '../context.js';
import { lockQuote, quoteStates } from './quote-states.js';
import { storeTotals, type QuoteView } from './quote-view.js';
import { requireEditable } from './save-quote.js';

/**
 * One change to a draft's sections, lines or deposit (the section verbs, the deposit): locks the quote's chain, refuses
 * unless it is a draft of the context's workspace, runs `change`, then stores the totals on the condition that the
 * revision is still a draft (docs/security.md, "Document states"). All or nothing.
 */
export function editDraft(
  ctx: WorkspaceContext,
  quoteId: string,
  change: (trx: Transaction<Schema>, row: Selectable<QuoteTable>) => Promise<void>,
): Promise<QuoteView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId });
    requireEditable(row);
    await change(trx, row);
    return storeTotals(ctx, trx, row.id, nowIso(ctx), quoteStates.moveFrom('edit'));
  });
}
