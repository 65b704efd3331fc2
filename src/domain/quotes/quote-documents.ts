import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { paperFor, type DocumentLogo, type Paper } from '../document-model.js';
import { enqueueDocument } from '../documents/document-jobs.js';
import type { TaxNumber } from '../settings/workspace-settings.js';
import type { Units } from '../units.js';
import { frozenPlansOf, type FrozenPlans } from './frozen-plans.js';
import { quoteDocument, type QuoteDocumentFrame } from './quote-document.js';
import type { QuoteView } from './quote-view.js';

type Db = DomainContext['store']['db'] | Transaction<Schema>;

/** The frame of a workspace's documents as its Settings say now: business block, logo, locale, zone, units, paper. */
export async function currentDocumentFrame(db: Db, workspaceId: string): Promise<QuoteDocumentFrame> {
  const row = await db
    .selectFrom('workspaces')
    .select([
      'name',
      'business_address',
      'business_phone',
      'business_email',
      'tax_numbers',
      'locale',
      'time_zone',
      'units',
      'paper',
      'logo',
      'logo_type',
      'logo_width',
      'logo_height',
    ])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const locale = row.locale ?? 'en-US';
  const logo: DocumentLogo | null =
    row.logo && row.logo_type && row.logo_width && row.logo_height
      ? {
          type: row.logo_type as DocumentLogo['type'],
          data: Buffer.from(row.logo).toString('base64'),
          width: Number(row.logo_width),
          height: Number(row.logo_height),
        }
      : null;
  return {
    business: {
      name: row.name,
      address: row.business_address ?? null,
      phone: row.business_phone ?? null,
      email: row.business_email ?? null,
      taxNumbers: JSON.parse(row.tax_numbers ?? '[]') as TaxNumber[],
      logo,
    },
    locale,
    timeZone: row.time_zone ?? 'UTC',
    units: (row.units ?? 'metric') as Units,
    paper: paperFor(locale, (row.paper ?? null) as Paper | null),
  };
}

/**
 * Freezes a sent revision's document and queues its PDF, inside the send's transaction (docs/documents.md, "Frozen at
 * send"): the model with everything the PDF shows (the business block and logo as Settings say now, the plans as
 * frozen by the send) and the frame an accepted copy will be made with. The send never waits for the render.
 * Answers the document's id (the send's email names it, to attach the PDF once it is made).
 */
export async function freezeQuoteDocument(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  quote: QuoteView,
  plans: FrozenPlans | null,
): Promise<string> {
  const frame = await currentDocumentFrame(trx, quote.workspaceId);
  return enqueueDocument(trx, ctx, {
    workspaceId: quote.workspaceId,
    quoteId: quote.id,
    purpose: 'sent',
    model: quoteDocument(quote, frame, plans),
    frame,
  });
}

/**
 * Queues the accepted copy of a revision, inside the accept's transaction (docs/documents.md, "The accepted copy"):
 * the same pages as sent, framed by what was frozen at the send, with the optional lines as accepted, and the
 * acceptance page. It is rendered after the sent PDF, whose SHA-256 the acceptance page prints. A revision sent before
 * documents existed is framed by Settings as they are now. Answers the copy's document id.
 */
export async function freezeAcceptedCopy(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  quote: QuoteView,
): Promise<string> {
  const sent = await trx
    .selectFrom('documents')
    .select(['id', 'frame'])
    .where('quote_id', '=', quote.id)
    .where('purpose', '=', 'sent')
    .executeTakeFirst();
  const row = await trx.selectFrom('quotes').select('plans').where('id', '=', quote.id).executeTakeFirstOrThrow();
  const frame = sent?.frame
    ? (JSON.parse(sent.frame) as QuoteDocumentFrame)
    : await currentDocumentFrame(trx, quote.workspaceId);
  return enqueueDocument(trx, ctx, {
    workspaceId: quote.workspaceId,
    quoteId: quote.id,
    purpose: 'accepted',
    model: quoteDocument(quote, frame, frozenPlansOf(row.plans), { accepted: true }),
    dependsOn: sent?.id ?? null,
  });
}
