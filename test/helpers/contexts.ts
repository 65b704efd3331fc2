import { inWorkspace, type DomainContext, type WorkspaceContext } from '../../src/domain/context.js';
import { workspaceOfLead } from '../../src/domain/leads/find-lead.js';
import { workspaceOfQuote } from '../../src/domain/quotes/get-quote.js';

/**
 * The context of a quote's (or a lead's) own workspace, resolved as the operator's CLI resolves it
 * (src/cli/resolve.ts): for the tests that act on one quote or lead and don't test whose workspace it is. The
 * cross-workspace tests make their contexts with `inWorkspace` and the workspace they mean.
 */
export async function quoteCtx(ctx: DomainContext, quoteRef: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfQuote(ctx, quoteRef));
}

export async function leadCtx(ctx: DomainContext, leadId: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfLead(ctx, leadId));
}
