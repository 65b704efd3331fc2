import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { enqueueDocument } from '../documents/document-jobs.js';
import { currentDocumentFrame } from '../quotes/quote-documents.js';
import { invoiceDocument } from './invoice-document.js';
import type { InvoiceView } from './invoice-view.js';

/**
 * Freezes a sent invoice's (or credit note's) document and queues its PDF, inside the send's transaction
 * (docs/documents.md, "Frozen at send"): the model with the business block and logo as Settings say now, and the quote
 * it came from. The send never waits for the render. Answers the document's id (the email names it).
 */
export async function freezeInvoiceDocument(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  invoice: InvoiceView,
): Promise<string> {
  const frame = await currentDocumentFrame(trx, invoice.workspaceId);
  const quote = invoice.quoteId
    ? await trx.selectFrom('quotes').select(['number', 'revision']).where('id', '=', invoice.quoteId).executeTakeFirst()
    : undefined;
  const quoteLabel = quote?.number
    ? `${quote.number}${Number(quote.revision) > 1 ? ` rev ${quote.revision}` : ''}`
    : null;
  return enqueueDocument(trx, ctx, {
    workspaceId: invoice.workspaceId,
    quoteId: null,
    invoiceId: invoice.id,
    purpose: 'sent',
    model: invoiceDocument(
      invoice,
      { ...frame, locale: invoice.locale },
      {
        quote: quoteLabel,
        creditOf: invoice.creditOf?.number ?? null,
      },
    ),
  });
}
