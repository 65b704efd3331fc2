import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type DomainContext, type WorkspaceContext } from '../context.js';
import { newId } from '../ids.js';
import type { TaxRate } from '../money.js';
import { loadInvoiceView, findInvoiceRow, type InvoiceView } from './invoice-view.js';
import { insertLines, storeDraftTotals, type NewInvoiceLine } from './invoice-rows.js';
import type { InvoiceKind } from './invoice-states.js';

/** Who a verb acts for, as the invoice's `created_by_user_id` and `recorded_by_user_id` keep it: a person, or none. */
export function actorUserId(ctx: DomainContext): string | null {
  return ctx.actor?.kind === 'user' ? ctx.actor.userId : null;
}

/**
 * What a new draft starts with; every verb that makes one (from a quote, from a lead, a credit note) passes it here.
 */
export interface NewDraft {
  kind: InvoiceKind;
  quoteId: string | null;
  quoteChainId: string | null;
  leadId: string | null;
  creditOf: string | null;
  customer: { name: string | null; email: string | null; phone: string | null; address: string | null };
  title: string | null;
  currency: string;
  taxRates: TaxRate[];
  creditReason?: string | null;
  /** From Settings (read before the write: a read of `ctx.store.db` inside one would wait for it on SQLite). */
  paymentTermsDays: number;
  lines: NewInvoiceLine[];
}

/**
 * Writes a new draft, its lines and totals, and its audit record, in the caller's transaction; answers it. The
 * payment terms come from Settings (a draft's can be changed); the locale and payment instructions are frozen at the
 * send. Everything it reads, it reads through `trx`.
 */
export async function insertDraft(
  ctx: WorkspaceContext,
  trx: Transaction<Schema>,
  draft: NewDraft,
): Promise<InvoiceView> {
  const id = newId('ivc');
  const at = nowIso(ctx);
  const row = {
    id,
    workspace_id: ctx.workspaceId,
    kind: draft.kind,
    status: 'draft',
    number: null,
    quote_id: draft.quoteId,
    quote_chain_id: draft.quoteChainId,
    lead_id: draft.leadId,
    credit_of: draft.creditOf,
    customer_name: draft.customer.name,
    customer_email: draft.customer.email,
    customer_phone: draft.customer.phone,
    customer_address: draft.customer.address,
    title: draft.title,
    note: null,
    currency: draft.currency,
    tax_rates: JSON.stringify(draft.taxRates.map((t) => ({ name: t.name, rate: t.rate }))),
    locale: null,
    payment_terms_days: draft.paymentTermsDays,
    payment_instructions: null,
    issue_date: null,
    due_date: null,
    subtotal: 0,
    total: 0,
    paid: 0,
    credited: 0,
    balance: 0,
    token_hash: null,
    token_enc: null,
    credit_reason: draft.creditReason ?? null,
    void_reason: null,
    created_by_user_id: actorUserId(ctx),
    created_at: at,
    updated_at: at,
    sent_at: null,
    sent_by_user_id: null,
    viewed_at: null,
    view_count: 0,
    voided_at: null,
  };
  await trx.insertInto('invoices').values(row).execute();
  await insertLines(trx, id, draft.lines);
  await storeDraftTotals(ctx, trx, row);
  const stored = await findInvoiceRow(trx, { workspaceId: ctx.workspaceId, invoiceId: id });
  await recordAudit(trx, ctx, {
    action: draft.kind === 'credit_note' ? 'invoice.credited' : 'invoice.created',
    workspaceId: ctx.workspaceId,
    targetIds: [id, ...[draft.creditOf, draft.quoteId, draft.leadId].filter((t): t is string => t !== null)],
    details: {
      lines: draft.lines.length,
      total: Number(stored.total),
      ...(draft.kind === 'deposit' ? { deposit: true } : {}),
      ...(draft.kind === 'final' ? { rest: true } : {}),
    },
  });
  return loadInvoiceView(ctx, trx, stored);
}
