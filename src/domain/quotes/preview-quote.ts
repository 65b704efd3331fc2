import type { WorkspaceVerbArgs } from '../context.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { businessOf, stateOf, type CustomerQuote } from './customer-quote.js';
import { figuresForSend, freezePlans, frozenPlansOf } from './frozen-plans.js';
import { findQuoteRow, loadContent, viewOf } from './quote-view.js';

/**
 * **Preview as the customer** (docs/admin-app.md, "Quotes"): what the customer's page shows of a revision, for the
 * staff of its workspace, a draft too. It changes nothing of the quote: no view is recorded, no link is made. A draft
 * shows as it will once sent (open, with the plans its send would freeze from the scans as they are now); a sent
 * revision as its link shows it (its frozen plans, its state).
 */
export async function previewQuote({ ctx, input }: WorkspaceVerbArgs<{ quoteId: string }>): Promise<CustomerQuote> {
  const row = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  const content = await loadContent(ctx.store.db, row.id);
  const quote = viewOf(ctx, row, content, settings.timeZone);
  const draft = row.status === 'draft';
  const plans = draft
    ? await freezePlans(ctx.store.db, {
        workspaceId: ctx.workspaceId,
        lines: content.lines,
        units: settings.units,
        figures: await figuresForSend(ctx, { workspaceId: ctx.workspaceId, quoteId: row.id }),
      })
    : frozenPlansOf(row.plans);
  const [earlier, documents] = await Promise.all([
    ctx.store.db
      .selectFrom('quotes')
      .select('id')
      .where('chain_id', '=', row.chain_id)
      .where('sent_at', 'is not', null)
      .where('revision', '<', row.revision)
      .executeTakeFirst(),
    ctx.store.db.selectFrom('documents').select('purpose').where('quote_id', '=', row.id).execute(),
  ]);
  return {
    quote,
    // A draft (or a revision a later one replaced) reads as the customer would find it: open to answer.
    state: draft || row.status === 'replaced' ? 'open' : stateOf(quote),
    replacesEarlier: earlier !== undefined,
    business: businessOf(settings),
    locale: settings.locale,
    timeZone: settings.timeZone,
    plans,
    documents: {
      sent: documents.some((d) => d.purpose === 'sent'),
      accepted: documents.some((d) => d.purpose === 'accepted'),
    },
  };
}
