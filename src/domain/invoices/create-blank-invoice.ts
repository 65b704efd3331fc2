import type { WorkspaceVerbArgs } from '../context.js';
import { findLeadRow } from '../leads/find-lead.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import type { InvoiceView } from './invoice-view.js';
import { insertDraft } from './new-draft.js';

/**
 * A blank draft invoice for a lead (docs/invoices.md, "Drafts"): the customer's name, email, phone and address
 * from the lead, the workspace's currency and taxes as Settings say now, no line yet. A person adds the lines.
 */
export async function createBlankInvoice({ ctx, input }: WorkspaceVerbArgs<{ leadId: string }>): Promise<InvoiceView> {
  const lead = await findLeadRow(ctx.store.db, { workspaceId: ctx.workspaceId, id: input.leadId });
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: ctx.workspaceId } });
  return ctx.store.writer.write((trx) =>
    insertDraft(ctx, trx, {
      kind: 'invoice',
      quoteId: null,
      quoteChainId: null,
      leadId: lead.id,
      creditOf: null,
      customer: { name: lead.name, email: lead.email, phone: lead.phone, address: lead.address },
      title: null,
      currency: settings.currency,
      taxRates: settings.taxes.map((t) => ({ name: t.name, rate: t.rate })),
      paymentTermsDays: settings.paymentTermsDays,
      lines: [],
    }),
  );
}
