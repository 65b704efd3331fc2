import type { Selectable } from 'kysely';
import type { QuoteTable } from '../../storage/schema.js';
import type { DomainContext, WorkspaceContext, WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { parseQuoteNumber } from './quote-number.js';
import { findQuoteRow, loadQuoteView, type QuoteView } from './quote-view.js';

/** A quote of the context's workspace by id, or by number (`Q-0007`: its latest revision; `Q-0007 rev 1`: that one). */
export async function getQuote({ ctx, input }: WorkspaceVerbArgs<{ ref: string }>): Promise<QuoteView> {
  return loadQuoteView(ctx, ctx.store.db, await findQuoteByRef(ctx, input.ref));
}

/** The row of a quote of the context's workspace named by id or number; another workspace's is `quote_not_found`. */
export async function findQuoteByRef(ctx: WorkspaceContext, ref: string): Promise<Selectable<QuoteTable>> {
  const parsed = parseQuoteNumber(ref);
  if (!parsed) return findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: ref.trim() });
  return quoteByNumber(ctx, parsed, ctx.workspaceId);
}

/**
 * The workspace of a quote named by id or number, for the operator's CLI, which names any quote and then acts
 * inside the quote's own workspace. A number that several workspaces have needs the quote's id.
 */
export async function workspaceOfQuote(ctx: DomainContext, ref: string): Promise<string> {
  const parsed = parseQuoteNumber(ref);
  if (parsed) return (await quoteByNumber(ctx, parsed, 'any')).workspace_id;
  const row = await ctx.store.db
    .selectFrom('quotes')
    .select('workspace_id')
    .where('id', '=', ref.trim())
    .executeTakeFirst();
  if (!row) throw new AppError('quote_not_found', `No quote ${ref.trim().slice(0, 40)}`);
  return row.workspace_id;
}

async function quoteByNumber(
  ctx: DomainContext,
  parsed: { number: string; revision?: number },
  workspaceId: string | 'any',
): Promise<Selectable<QuoteTable>> {
  const rows = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('number', '=', parsed.number)
    .$if(workspaceId !== 'any', (q) => q.where('workspace_id', '=', workspaceId))
    .$if(parsed.revision !== undefined, (q) => q.where('revision', '=', parsed.revision!))
    .orderBy('revision', 'desc')
    .execute();
  if (rows.length === 0)
    throw new AppError(
      'quote_not_found',
      `No quote ${parsed.number}${parsed.revision ? ` rev ${parsed.revision}` : ''}`,
    );
  if (new Set(rows.map((r) => r.workspace_id)).size > 1)
    throw new AppError(
      'quote_not_found',
      `Several workspaces have a ${parsed.number}: give the quote's id (see \`leadscan quotes list --workspace W\`)`,
    );
  return rows[0]!;
}
