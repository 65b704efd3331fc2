import type { Selectable, Transaction } from 'kysely';
import type { QuoteTable, Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { getWorkspaceSettings, type TaxNumber, type WorkspaceSettings } from '../settings/workspace-settings.js';
import { frozenPlansOf, type FrozenPlans } from './frozen-plans.js';
import { hashQuoteToken, isQuoteToken } from './quote-token.js';
import { loadContent, viewOf, type QuoteView } from './quote-view.js';

/** What the customer's page `/q/{token}` shows (no sign-in). */
export interface CustomerQuote {
  quote: QuoteView;
  /**
   * `open` (can be accepted or declined), `accepted`, `declined`, `withdrawn` or `expired` (past its valid-until
   * day): the page says each in plain words.
   */
  state: 'open' | 'accepted' | 'declined' | 'withdrawn' | 'expired';
  /** Whether this revision replaced an earlier one sent on the same link (the page says so). */
  replacesEarlier: boolean;
  business: {
    name: string;
    address: string | null;
    phone: string | null;
    email: string | null;
    taxNumbers: TaxNumber[];
  };
  locale: string;
  timeZone: string;
  /** The priced rooms' floor plans as frozen at the revision's send; null for one sent before plans were frozen. */
  plans: FrozenPlans | null;
  /** Whether the revision has a PDF (docs/documents.md) and an accepted copy: the page offers what it has. */
  documents: { sent: boolean; accepted: boolean };
}

type Db = DomainContext['store']['db'] | Transaction<Schema>;

/** The revision a link shows: the latest sent one of its quote; `quote_not_found` for a link that leads nowhere. */
export async function shownRevision(db: Db, token: string): Promise<Selectable<QuoteTable>> {
  const row = isQuoteToken(token)
    ? await db
        .selectFrom('quotes')
        .selectAll()
        .where('token_hash', '=', hashQuoteToken(token))
        .where('status', 'not in', ['draft', 'replaced'])
        .orderBy('revision', 'desc')
        .executeTakeFirst()
    : undefined;
  if (!row)
    throw new AppError(
      'quote_not_found',
      'This link leads to no quote: it may have been mistyped, or the quote was deleted',
    );
  return row;
}

/** The business block of the customer's page, from Settings as they are now. */
export function businessOf(settings: WorkspaceSettings): CustomerQuote['business'] {
  return {
    name: settings.name,
    address: settings.businessAddress,
    phone: settings.businessPhone,
    email: settings.businessEmail,
    taxNumbers: settings.taxNumbers,
  };
}

export function stateOf(quote: QuoteView): CustomerQuote['state'] {
  if (quote.status === 'sent' || quote.status === 'viewed') return 'open';
  return quote.status as CustomerQuote['state'];
}

/**
 * The customer's page's data for a link's token. Reading it changes nothing: a view is recorded only when the page's
 * script reports it (`recordQuoteView`), so mail scanners that fetch links do not count.
 */
export async function openQuoteByToken({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { token: string };
}): Promise<CustomerQuote> {
  const row = await shownRevision(ctx.store.db, input.token);
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: row.workspace_id } });
  const quote = viewOf(ctx, row, await loadContent(ctx.store.db, row.id), settings.timeZone);
  const firstSent = await ctx.store.db
    .selectFrom('quotes')
    .select('revision')
    .where('chain_id', '=', row.chain_id)
    .where('sent_at', 'is not', null)
    .orderBy('revision')
    .executeTakeFirst();
  const documents = await ctx.store.db
    .selectFrom('documents')
    .select('purpose')
    .where('quote_id', '=', row.id)
    .execute();
  return {
    quote,
    state: stateOf(quote),
    replacesEarlier: firstSent !== undefined && Number(firstSent.revision) < quote.revision,
    business: businessOf(settings),
    locale: settings.locale,
    timeZone: settings.timeZone,
    plans: frozenPlansOf(row.plans),
    documents: {
      sent: documents.some((d) => d.purpose === 'sent'),
      accepted: documents.some((d) => d.purpose === 'accepted'),
    },
  };
}
