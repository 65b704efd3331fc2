import type { DomainContext } from '../context.js';
import type { DocumentPurpose, DocumentState } from './document-jobs.js';

type Db = DomainContext['store']['db'];

/** A document's PDF as stored (docs/documents.md): its bytes once rendered, or where its render stands. */
export interface StoredDocument {
  id: string;
  purpose: DocumentPurpose;
  fileName: string;
  state: DocumentState;
  /** Why the last try failed (kept while it is retried, and once it failed for good). */
  error: string | null;
  attempts: number;
  /** Set once rendered. */
  pdf: Uint8Array | null;
  sha256: string | null;
  size: number | null;
  renderedAt: string | null;
}

/** A quote revision's document of a purpose (its sent PDF, its accepted copy), with its bytes when asked. */
export async function quoteDocumentOf(
  db: Db,
  quoteId: string,
  purpose: DocumentPurpose,
  withBytes: boolean,
): Promise<StoredDocument | undefined> {
  return documentOf(db, 'quote_id', quoteId, purpose, withBytes);
}

/** An invoice's or a credit note's PDF (made when it is sent), with its bytes when asked. */
export async function invoiceDocumentOf(
  db: Db,
  invoiceId: string,
  withBytes: boolean,
): Promise<StoredDocument | undefined> {
  return documentOf(db, 'invoice_id', invoiceId, 'sent', withBytes);
}

async function documentOf(
  db: Db,
  column: 'quote_id' | 'invoice_id',
  id: string,
  purpose: DocumentPurpose,
  withBytes: boolean,
): Promise<StoredDocument | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['id', 'purpose', 'file_name', 'state', 'last_error', 'attempts', 'sha256', 'size', 'rendered_at'])
    .$if(withBytes, (q) => q.select('pdf'))
    .where(column, '=', id)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const pdf = (row as { pdf?: Buffer | null }).pdf;
  return {
    id: row.id,
    purpose: row.purpose as DocumentPurpose,
    fileName: row.file_name,
    state: row.state as DocumentState,
    error: row.last_error,
    attempts: Number(row.attempts),
    pdf: pdf ? new Uint8Array(pdf) : null,
    sha256: row.sha256,
    size: row.size === null ? null : Number(row.size),
    renderedAt: row.rendered_at,
  };
}
