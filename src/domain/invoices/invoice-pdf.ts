import type { Selectable } from 'kysely';
import type { InvoiceTable } from '../../storage/schema.js';
import type { DomainContext, VerbArgs, WorkspaceVerbArgs } from '../context.js';
import { renderForPerson, retryFailedDocumentsOf } from '../documents/document-jobs.js';
import { invoiceDocumentOf, type StoredDocument } from '../documents/stored-document.js';
import { AppError } from '../errors.js';
import { invoiceByToken } from './customer-invoice.js';
import { findInvoiceByRef } from './get-invoice.js';
import { invoiceLabel } from './invoice-states.js';
import { findInvoiceRow } from './invoice-view.js';

/** An invoice's PDF as stored (docs/documents.md): `not_sent` for a draft, whose PDF is made when it is sent. */
async function documentOfInvoice(
  ctx: DomainContext,
  row: Selectable<InvoiceTable>,
  withBytes: boolean,
): Promise<StoredDocument> {
  if (row.sent_at === null || row.number === null)
    throw new AppError('not_sent', `${invoiceLabel(row)} is a draft: its PDF is made when a person sends it`);
  const doc = await invoiceDocumentOf(ctx.store.db, row.id, withBytes);
  if (!doc) throw new AppError('invoice_not_found', `${invoiceLabel(row)} has no PDF`);
  return doc;
}

/** The staff's PDF of an invoice or credit note (its page's **PDF**), or where its render stands. */
export async function invoicePdf({
  ctx,
  input,
}: WorkspaceVerbArgs<{ invoiceId: string; withBytes?: boolean }>): Promise<StoredDocument> {
  const row = await findInvoiceRow(ctx.store.db, { workspaceId: ctx.workspaceId, invoiceId: input.invoiceId });
  return documentOfInvoice(ctx, row, input.withBytes !== false);
}

/** The customer's PDF (their page's **Download PDF**), by their link's token. */
export async function customerInvoicePdf({ ctx, input }: VerbArgs<{ token: string }>): Promise<StoredDocument> {
  return documentOfInvoice(ctx, await invoiceByToken(ctx.store.db, input.token), true);
}

/**
 * `leadscan invoices pdf INV`: the PDF by id or number; when no server has rendered it yet (or its tries failed), it
 * is rendered here from the same frozen model, so the bytes are the same.
 */
export async function invoicePdfForCli({ ctx, input }: WorkspaceVerbArgs<{ ref: string }>): Promise<StoredDocument> {
  const row = await findInvoiceByRef(ctx, input.ref);
  let doc = await documentOfInvoice(ctx, row, true);
  if (doc.state === 'done') return doc;
  await renderForPerson(ctx, doc);
  doc = await documentOfInvoice(ctx, row, true);
  if (doc.state !== 'done')
    throw new AppError(
      'service_unavailable',
      `The PDF could not be made: ${doc.error ?? 'it is being rendered; try again in a moment'}`,
    );
  return doc;
}

/** **Make PDF again** on the invoice's page: a failed render gets three new tries. Answers how many were queued. */
export async function retryInvoicePdf({ ctx, input }: WorkspaceVerbArgs<{ invoiceId: string }>): Promise<number> {
  const row = await findInvoiceRow(ctx.store.db, { workspaceId: ctx.workspaceId, invoiceId: input.invoiceId });
  return retryFailedDocumentsOf(ctx, { column: 'invoice_id', id: row.id, action: 'invoice.pdf_retried' });
}
