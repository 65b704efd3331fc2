import type { WorkspaceVerbArgs } from '../context.js';
import { findQuoteRow } from '../quotes/quote-view.js';
import { isOverdue } from './invoice-view.js';
import type { InvoiceKind, InvoiceStatus } from './invoice-states.js';

/** One document of a quote's chain after the quote: an invoice of any kind, or a credit note. */
export interface ChainDocument {
  id: string;
  number: string | null;
  kind: InvoiceKind;
  status: InvoiceStatus;
  overdue: boolean;
  total: number;
  paid: number;
  balance: number;
  issueDate: string | null;
  dueDate: string | null;
  /** A credit note's invoice. */
  creditOf: string | null;
}

/** A quote and the documents that followed it (docs/invoices.md, "Kinds and the chain"). */
export interface QuoteChain {
  quote: {
    /** The accepted revision when there is one, else the latest. */
    id: string;
    chainId: string;
    number: string | null;
    revision: number;
    status: string;
    total: number;
    acceptedAt: string | null;
  };
  /** Invoices and credit notes made from it, in the order they were made (void ones too, marked so). */
  documents: ChainDocument[];
}

/**
 * The chain of a quote, by any revision's id: the quote (`Q-0007 rev 2 accepted`) and every invoice and credit note
 * made from it (`INV-0003 deposit, paid`, `INV-0005, due 12 Dec`), for the quote's page, the lead's page and the
 * customer's quote link to show, each linked. Reads only.
 */
export async function invoiceChain({ ctx, input }: WorkspaceVerbArgs<{ quoteId: string }>): Promise<QuoteChain> {
  const asked = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  const [revisions, rows, workspace] = await Promise.all([
    ctx.store.db
      .selectFrom('quotes')
      .select(['id', 'chain_id', 'number', 'revision', 'status', 'total', 'accepted_at'])
      .where('chain_id', '=', asked.chain_id)
      .orderBy('revision', 'desc')
      .execute(),
    ctx.store.db
      .selectFrom('invoices')
      .select(['id', 'number', 'kind', 'status', 'total', 'paid', 'balance', 'issue_date', 'due_date', 'credit_of'])
      .where('quote_chain_id', '=', asked.chain_id)
      .where('workspace_id', '=', ctx.workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    ctx.store.db.selectFrom('workspaces').select('time_zone').where('id', '=', ctx.workspaceId).executeTakeFirst(),
  ]);
  const shown = revisions.find((r) => r.status === 'accepted') ?? revisions[0]!;
  const timeZone = workspace?.time_zone ?? 'UTC';
  const now = ctx.clock.now();
  return {
    quote: {
      id: shown.id,
      chainId: shown.chain_id,
      number: shown.number,
      revision: Number(shown.revision),
      status: shown.status,
      total: Number(shown.total),
      acceptedAt: shown.accepted_at,
    },
    documents: rows.map((r) => ({
      id: r.id,
      number: r.number,
      kind: r.kind as InvoiceKind,
      status: r.status as InvoiceStatus,
      overdue: isOverdue(r, timeZone, now),
      total: Number(r.total),
      paid: Number(r.paid),
      balance: Number(r.balance),
      issueDate: r.issue_date,
      dueDate: r.due_date,
      creditOf: r.credit_of,
    })),
  };
}
