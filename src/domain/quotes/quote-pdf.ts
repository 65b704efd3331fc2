import type { Selectable } from 'kysely';
import type { QuoteTable } from '../../storage/schema.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { renderForPerson, retryFailedDocumentsOf, type DocumentPurpose } from '../documents/document-jobs.js';
import { quoteDocumentOf, type StoredDocument } from '../documents/stored-document.js';
import { AppError } from '../errors.js';
import { shownRevision } from './customer-quote.js';
import { findQuoteByRef } from './get-quote.js';
import { findQuoteRow } from './quote-view.js';

/**
 * A quote's PDF as stored (docs/documents.md, "Where it goes"): the sent revision's, or with `accepted` its accepted
 * copy. `not_sent` for a draft that was never sent; `not_accepted` for the accepted copy of a quote not accepted.
 * A document sent before documents existed has none (`quote_not_found` names that).
 */
async function documentOfRevision(
  ctx: DomainContext,
  row: Selectable<QuoteTable>,
  accepted: boolean,
  withBytes: boolean,
): Promise<StoredDocument> {
  const label = `${row.number ?? 'This quote'}${Number(row.revision) > 1 ? ` rev ${row.revision}` : ''}`;
  if (row.status === 'draft' || row.sent_at === null)
    throw new AppError('not_sent', `${label} is a draft: its PDF is made when a person sends it`);
  if (accepted && row.status !== 'accepted')
    throw new AppError('not_accepted', `${label} is not accepted: it has no accepted copy`);
  const purpose: DocumentPurpose = accepted ? 'accepted' : 'sent';
  const doc = await quoteDocumentOf(ctx.store.db, row.id, purpose, withBytes);
  if (!doc)
    throw new AppError(
      'quote_not_found',
      `${label} was sent before PDFs were made: it has no ${accepted ? 'accepted copy' : 'PDF'}`,
    );
  return doc;
}

/** The latest sent revision of a quote's chain, for a reference that names a draft revision or the chain. */
async function latestSent(ctx: DomainContext, row: Selectable<QuoteTable>): Promise<Selectable<QuoteTable>> {
  if (row.status !== 'draft') return row;
  const sent = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('chain_id', '=', row.chain_id)
    .where('sent_at', 'is not', null)
    .where('status', '!=', 'draft')
    .orderBy('revision', 'desc')
    .executeTakeFirst();
  return sent ?? row;
}

/**
 * The staff's PDF of a quote revision (the quote page's **PDF**), by id in the context's workspace; a draft
 * revision answers its chain's latest sent one.
 */
export async function quotePdf({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string; accepted?: boolean; withBytes?: boolean }>): Promise<StoredDocument> {
  const row = await latestSent(
    ctx,
    await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId }),
  );
  return documentOfRevision(ctx, row, input.accepted === true, input.withBytes !== false);
}

/**
 * `leadscan quotes pdf Q`: the latest sent revision's PDF (or its accepted copy) by id or number; when no server has
 * rendered it yet (or its tries failed), it is rendered here, from the same frozen model, so the bytes are the same.
 */
export async function quotePdfForCli({
  ctx,
  input,
}: WorkspaceVerbArgs<{ ref: string; accepted?: boolean }>): Promise<StoredDocument> {
  const row = await latestSent(ctx, await findQuoteByRef(ctx, input.ref));
  const accepted = input.accepted === true;
  let doc = await documentOfRevision(ctx, row, accepted, true);
  if (doc.state === 'done') return doc;
  if (accepted) {
    // The accepted copy prints the sent PDF's SHA-256: that one first.
    const sent = await documentOfRevision(ctx, row, false, false);
    if (sent.state !== 'done') await renderForPerson(ctx, sent);
  }
  await renderForPerson(ctx, doc);
  doc = await documentOfRevision(ctx, row, accepted, true);
  if (doc.state !== 'done')
    throw new AppError(
      'service_unavailable',
      `The PDF could not be made: ${doc.error ?? 'it is being rendered; try again in a moment'}`,
    );
  return doc;
}

/** The customer's PDF (their page's **Download PDF**, the accepted copy's stable address), by their link's token. */
export async function customerQuotePdf({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { token: string; accepted?: boolean };
}): Promise<StoredDocument> {
  const row = await shownRevision(ctx.store.db, input.token);
  return documentOfRevision(ctx, row, input.accepted === true, true);
}

/**
 * **Make PDF again** on the staff's quote page: a revision's failed documents (its PDF, its accepted copy) get three
 * new tries. Answers how many were queued again.
 */
export async function retryQuotePdf({ ctx, input }: WorkspaceVerbArgs<{ quoteId: string }>): Promise<number> {
  const row = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  return retryFailedDocumentsOf(ctx, { column: 'quote_id', id: row.id, action: 'quote.pdf_retried' });
}

/** Where a revision's PDFs stand, for its staff page (no bytes): its sent PDF and its accepted copy, those it has. */
export async function quoteDocuments({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string }>): Promise<{ sent?: StoredDocument; accepted?: StoredDocument }> {
  const row = await findQuoteRow(ctx.store.db, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  const [sent, accepted] = await Promise.all([
    quoteDocumentOf(ctx.store.db, row.id, 'sent', false),
    quoteDocumentOf(ctx.store.db, row.id, 'accepted', false),
  ]);
  return { ...(sent ? { sent } : {}), ...(accepted ? { accepted } : {}) };
}
