import type { VerbArgs } from '../context.js';
import type { InvoiceKind, InvoiceStatus } from './invoice-states.js';
import { customerUrlOf } from './invoice-view.js';

/** An invoice or credit note of a quote's chain as the customer's quote page links it. */
export interface QuoteInvoiceLink {
  number: string;
  kind: InvoiceKind;
  status: InvoiceStatus;
  /** The customer's own link to it (`{base}/i/{token}`). */
  url: string;
}

/**
 * The sent invoices and credit notes made from a quote (any of its revisions), in the order made, each with the
 * customer's link: the chain's links on the customer's quote page (docs/invoices.md, "The customer's page"). Drafts
 * have no link and are left out. Reads only.
 */
export async function invoiceLinksOfQuote({ ctx, input }: VerbArgs<{ quoteId: string }>): Promise<QuoteInvoiceLink[]> {
  const quote = await ctx.store.db
    .selectFrom('quotes')
    .select(['chain_id', 'workspace_id'])
    .where('id', '=', input.quoteId)
    .executeTakeFirst();
  if (!quote) return [];
  const rows = await ctx.store.db
    .selectFrom('invoices')
    .select(['id', 'number', 'kind', 'status', 'token_enc'])
    .where('quote_chain_id', '=', quote.chain_id)
    .where('workspace_id', '=', quote.workspace_id)
    .where('status', '!=', 'draft')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.flatMap((r) => {
    const url = customerUrlOf(ctx, r.token_enc);
    return url && r.number
      ? [{ number: r.number, kind: r.kind as InvoiceKind, status: r.status as InvoiceStatus, url }]
      : [];
  });
}
