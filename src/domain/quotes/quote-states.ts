import type { Selectable, Transaction } from 'kysely';
import type { QuoteTable, Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { documentStates } from '../document-state.js';
import { AppError } from '../errors.js';
import { shownRevision } from './customer-quote.js';
import { hashQuoteToken, isQuoteToken } from './quote-token.js';

/** What a revision's `status` column holds (`expired` is derived from the date, never stored). */
export const QUOTE_STATES = ['draft', 'sent', 'viewed', 'accepted', 'declined', 'withdrawn', 'replaced'] as const;
export type StoredQuoteStatus = (typeof QUOTE_STATES)[number];

/** The states that answer a quote: a chain with a revision in one of them is final. */
export const ANSWERED: readonly StoredQuoteStatus[] = ['accepted', 'declined'];

/**
 * Who may move a quote's revision from which state to which (docs/security.md, "Document states"). Every verb of
 * `quotes/` locks the quote's chain first (`lockQuote`, `lockQuoteByToken`), checks its move here, and writes it on
 * the condition of its `from` states.
 */
export const quoteStates = documentStates(QUOTE_STATES, {
  /** Save, line edits, reorder, remove: only a draft changes. */
  edit: { from: ['draft'], to: 'draft', by: 'staff' },
  /** Send: the person's sign-off; refused when another revision of the quote was answered. */
  send: { from: ['draft'], to: 'sent', by: 'staff' },
  /** The earlier revision on the link, when a later one is sent. */
  replace: { from: ['sent', 'viewed'], to: 'replaced', by: 'system' },
  /** The customer's page was shown in a browser. */
  view: { from: ['sent', 'viewed'], to: 'viewed', by: 'customer' },
  accept: { from: ['sent', 'viewed'], to: 'accepted', by: 'customer' },
  decline: { from: ['sent', 'viewed'], to: 'declined', by: 'customer' },
  withdraw: { from: ['sent', 'viewed'], to: 'withdrawn', by: 'staff' },
  /** Revise: a new draft revision from the latest one, which keeps its state until the new one is sent. */
  revise: { from: ['sent', 'viewed', 'withdrawn'], to: 'draft', by: 'staff', makesRow: true },
});

export type QuoteVerb = keyof typeof quoteStates.moves;

const label = (row: Pick<QuoteTable, 'number' | 'revision'>) =>
  `${row.number ?? 'This quote'}${Number(row.revision) > 1 ? ` rev ${row.revision}` : ''}`;

/** Line edits, title, terms, send…: only a draft changes (a sent quote is revised instead). */
export function notEditable(row: Pick<QuoteTable, 'number' | 'revision'>, status: string): AppError {
  return new AppError(
    'quote_not_editable',
    `${label(row)} is ${status}: a sent quote is never changed; revise it to make a new draft`,
  );
}

/** A chain with an answered revision is final: nothing more is sent, revised or withdrawn from it. */
export function answeredFirst(answer: string): AppError {
  return new AppError(
    'quote_final',
    `The customer ${answer} it first: an answered quote is final; copy it to start a new quote`,
  );
}

/** Why the customer's answer to the revision their page showed is refused, from the state it is in now. */
export function notAnswerable(status: string): AppError {
  if (status === 'accepted' || status === 'declined')
    return new AppError('quote_final', `This quote was already ${status}`);
  if (status === 'withdrawn') return new AppError('quote_link_unusable', 'This quote was withdrawn by the sender');
  return new AppError('quote_updated', 'This quote was updated: read the new version before answering it');
}

/** The answered revision of a chain, if any (read under the chain's lock). */
export async function answerOf(
  trx: Transaction<Schema>,
  chainId: string,
): Promise<{ revision: number; status: string } | undefined> {
  const row = await trx
    .selectFrom('quotes')
    .select(['revision', 'status'])
    .where('chain_id', '=', chainId)
    .where('status', 'in', ANSWERED)
    .executeTakeFirst();
  return row && { revision: Number(row.revision), status: row.status };
}

/**
 * Locks a quote's chain (the row of its first revision, whose id is the chain's) until the transaction ends, then
 * reads the revision: every verb on one quote runs one after the other, on every instance. `quote_not_found` for a
 * quote of another workspace, as for a missing one.
 */
export async function lockQuote(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  ref: { workspaceId: string; quoteId: string },
): Promise<Selectable<QuoteTable>> {
  await ctx.store.ops
    .lockedRead(
      trx
        .selectFrom('quotes')
        .select('id')
        .where(
          'id',
          '=',
          trx.selectFrom('quotes as revision').select('revision.chain_id').where('revision.id', '=', ref.quoteId),
        ),
    )
    .execute();
  const row = await trx
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', ref.quoteId)
    .where('workspace_id', '=', ref.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('quote_not_found', `No quote ${ref.quoteId} in this workspace`);
  return row;
}

/**
 * The customer's side of `lockQuote`: locks the chain a link's token belongs to, then reads the revision the link
 * shows now (the latest sent one); `quote_not_found` for a link that leads nowhere.
 */
export async function lockQuoteByToken(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  token: string,
): Promise<Selectable<QuoteTable>> {
  if (isQuoteToken(token)) {
    await ctx.store.ops
      .lockedRead(
        trx
          .selectFrom('quotes')
          .select('id')
          .where(
            'id',
            '=',
            trx
              .selectFrom('quotes as revision')
              .select('revision.chain_id')
              .where('revision.token_hash', '=', hashQuoteToken(token))
              .limit(1),
          ),
      )
      .execute();
  }
  return shownRevision(trx, token);
}
