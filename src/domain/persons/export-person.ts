import { recordAuditAlone } from '../audit/record-audit.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import type { MarkedLeadState } from '../quarantine/mark-as-spam.js';
import { toQuarantineView, type QuarantineView } from '../quarantine/list-quarantine.js';
import { readLeadRecords, requestMeta, toExportedLead, type ExportedLead, type RequestMeta } from './exported-lead.js';
import { findPersonInvoices, findPersonRows, personMatch, type PersonMatch } from './person-data.js';
import { loadQuoteView, type QuoteView } from '../quotes/quote-view.js';
import { loadInvoiceView, type InvoiceView } from '../invoices/invoice-view.js';

export interface PersonExport {
  workspaceId: string;
  match: PersonMatch;
  leads: ExportedLead[];
  /** Every revision of the quotes made for those leads (docs/quotes.md), without the customer's link (a secret). */
  quotes: Array<Omit<QuoteView, 'customerUrl'>>;
  /**
   * Their invoices and credit notes with lines and payments (those of their leads, and those addressed to their
   * email), without the customer's link.
   */
  invoices: Array<Omit<InvoiceView, 'customerUrl'>>;
  /** `markedLead`: for a lead marked as spam, the lead as it was kept (Restore brings it back); null for a catch. */
  quarantine: Array<QuarantineView & RequestMeta & { markedLead: ExportedLead | null }>;
  idempotencyRecords: Array<{ scope: string; key: string; createdAt: string }>;
}

/**
 * A person's request to see their data (docs/operations.md): everything stored about them, request details included.
 */
export async function exportPerson({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  email?: string | undefined;
  phone?: string | undefined;
  lookupOnly?: boolean;
}>): Promise<PersonExport> {
  const match = personMatch(input);
  const rows = await findPersonRows(ctx.store.db, { workspaceId: ctx.workspaceId, match });
  const leadIds = rows.leads.map((l) => l.id);
  const invoiceRows = await findPersonInvoices(ctx.store.db, { workspaceId: ctx.workspaceId, match, leadIds });
  // The export handed out is recorded with its counts (never whom); the People screen's lookup before it is not.
  if (!input.lookupOnly) {
    await recordAuditAlone(ctx, {
      action: 'person.exported',
      workspaceId: ctx.workspaceId,
      details: { leads: rows.leads.length, quarantine: rows.quarantine.length, invoices: invoiceRows.length },
    });
  }
  return {
    workspaceId: ctx.workspaceId,
    match,
    // The team's notes and history about the person are data about them too (the erasure deletes them with the lead).
    leads: await Promise.all(rows.leads.map(async (row) => toExportedLead(await readLeadRecords(ctx.store.db, row)))),
    quotes: await quotesOf(ctx, leadIds),
    invoices: await Promise.all(
      invoiceRows.map(async (row) => {
        const { customerUrl: _link, ...invoice } = await loadInvoiceView(ctx, ctx.store.db, row);
        return invoice;
      }),
    ),
    quarantine: rows.quarantine.map((row) => ({
      ...toQuarantineView(row),
      ...requestMeta(row),
      markedLead: row.lead_state ? toExportedLead(JSON.parse(row.lead_state) as MarkedLeadState) : null,
    })),
    idempotencyRecords: rows.idempotency.map((r) => ({ scope: r.scope, key: r.key, createdAt: r.created_at })),
  };
}

async function quotesOf(ctx: DomainContext, leadIds: string[]): Promise<PersonExport['quotes']> {
  if (leadIds.length === 0) return [];
  const rows = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('lead_id', 'in', leadIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return Promise.all(
    rows.map(async (row) => {
      const { customerUrl: _link, ...quote } = await loadQuoteView(ctx, ctx.store.db, row);
      return quote;
    }),
  );
}
