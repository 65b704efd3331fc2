import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { parseQuoteNumber } from './quote-number.js';
import { findQuoteRow, loadQuoteView, type QuoteView } from './quote-view.js';

/**
 * A quote by id, or by number (`Q-0007`: its latest revision; `Q-0007 rev 1`: that one). A number needs the
 * workspace unless only one workspace has it (the CLI runs server-wide).
 */
export async function getQuote({ ctx, input }: VerbArgs<{ workspaceId?: string; ref: string }>): Promise<QuoteView> {
  return loadQuoteView(ctx, ctx.store.db, await findQuoteByRef(ctx, input));
}

export async function findQuoteByRef(ctx: VerbArgs<unknown>['ctx'], input: { workspaceId?: string; ref: string }) {
  const parsed = parseQuoteNumber(input.ref);
  if (!parsed) return findQuoteRow(ctx.store.db, { workspaceId: input.workspaceId, quoteId: input.ref.trim() });
  const rows = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('number', '=', parsed.number)
    .$if(input.workspaceId !== undefined, (q) => q.where('workspace_id', '=', input.workspaceId!))
    .$if(parsed.revision !== undefined, (q) => q.where('revision', '=', parsed.revision!))
    .orderBy('revision', 'desc')
    .execute();
  const workspaces = new Set(rows.map((r) => r.workspace_id));
  if (rows.length === 0)
    throw new AppError(
      'quote_not_found',
      `No quote ${parsed.number}${parsed.revision ? ` rev ${parsed.revision}` : ''}`,
    );
  if (workspaces.size > 1)
    throw new AppError(
      'quote_not_found',
      `Several workspaces have a ${parsed.number}: give the quote's id (see \`leadscan quotes list --workspace W\`)`,
    );
  return rows[0]!;
}
