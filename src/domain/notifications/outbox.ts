import type { Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { OutboxTable, Schema } from '../../storage/schema.js';
import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { newId } from '../ids.js';
import type { QuoteEmailPayload } from './quote-email.js';
import type { FollowUpPayload } from './follow-up-emails.js';
import type { InvoicePayload } from './invoice-email-payload.js';

export type OutboxPurpose =
  | 'leads'
  | 'digest'
  | 'test'
  | 'invite'
  | 'password_reset'
  | 'email_change'
  | 'quotes'
  | 'quote_sent'
  | 'confirmation'
  | 'follow_up'
  | 'invoice_sent'
  | 'invoices';

/**
 * What an email is about, sealed in its outbox row. Leads and scans are named by id: their fields are read when
 * the email is rendered, so nothing of a lead is copied into the outbox (and an erased lead is not mailed about).
 */
export type OutboxPayload =
  | {
      kind: 'arrivals';
      /** Named in the email: each source's first leads (MOST_PER_EMAIL), and the first scans. */
      leadIds: string[];
      scanIds: string[];
      /** How many leads arrived from each source, named or not (absent in emails queued before counts existed). */
      leadsBySource?: Array<{ sourceId: string; count: number }>;
      scanTotal?: number;
    }
  | { kind: 'digest'; leadIds: string[]; total: number; from: string; to: string }
  | { kind: 'test'; requestedBy: string }
  | {
      kind: 'invite';
      workspaceName: string;
      invitedBy: string;
      link: string;
      expiresAt: string;
      existingAccount: boolean;
    }
  | { kind: 'password_reset'; link: string; expiresAt: string }
  | { kind: 'email_change'; link: string; expiresAt: string; newEmail: string }
  /** Instead of `email_change` when another account already uses the address: no link, a note to its owner. */
  | { kind: 'email_in_use'; address: string; signInUrl: string }
  /** To the old address once a change is confirmed: a change the person did not make does not go unseen. */
  | { kind: 'email_changed'; oldEmail: string; newEmail: string; changedAt: string; signInUrl: string }
  /** The customer's page's emails (quote-emails.ts): the quote is named by id and read at sending time. */
  | QuotePayload
  /** A sent quote to its customer (quote-email.ts): the link is the customer's, sealed like every payload. */
  | QuoteEmailPayload
  /** To the person who sent a form (sender-confirmation.ts): nothing of theirs but the row's address. */
  | { kind: 'confirmation' }
  /** A reminder of a quote without an answer, to its sender or its customer (follow-up-emails.ts). */
  | FollowUpPayload
  /** An invoice sent, a payment's receipt, an invoice paid in full (invoice-emails.ts): named by id, read when sent. */
  | InvoicePayload;

/** What a sent, failed or dropped confirmation's row shows instead of the visitor's address. */
export const CONFIRMATION_RECIPIENT = '(the person who sent the form)';

/** The customer's page's emails (quote-emails.ts): to the sender on view, accept, decline; the customer's copy. */
export type QuoteEvent = 'viewed' | 'accepted' | 'declined' | 'customer_copy';

export interface QuotePayload {
  kind: 'quote';
  event: QuoteEvent;
  quoteId: string;
  /** The accepted copy's PDF, attached to the acceptance's emails once rendered (docs/documents.md). */
  documentId?: string;
}

export interface QueuedEmail {
  purpose: OutboxPurpose;
  to: string;
  payload: OutboxPayload;
  /** The workspace it belongs to; null for the server's own (a password reset, a test from the CLI). */
  workspaceId: string | null;
  userId?: string | null;
}

/** Puts an email in the outbox inside the caller's transaction: it exists exactly when the change that asks for it. */
export async function enqueueEmail(trx: Transaction<Schema>, ctx: DomainContext, email: QueuedEmail): Promise<string> {
  const now = nowIso(ctx);
  const id = newId('mail');
  await trx
    .insertInto('outbox')
    .values({
      id,
      workspace_id: email.workspaceId ?? null,
      user_id: email.userId ?? null,
      purpose: email.purpose,
      to_address: email.to,
      payload: ctx.secrets.seal(JSON.stringify(email.payload)),
      state: 'pending',
      attempts: 0,
      created_at: now,
      next_attempt_at: now,
      claim: null,
      claimed_until: null,
      sent_at: null,
      last_error: null,
    })
    .execute();
  return id;
}

/** An email claimed for sending: only the claimer may settle it, until the claim lapses. */
export interface ClaimedEmail {
  id: string;
  claim: string;
  purpose: OutboxPurpose;
  to: string;
  workspaceId: string | null;
  userId: string | null;
  payload: OutboxPayload;
  attempts: number;
  createdAt: string;
}

/** How long a claim holds: a sender that died mid-send leaves its emails to another after this. */
const CLAIM_MS = 2 * 60_000;
/**
 * Retries back off from 30 s, doubling, at most an hour apart; after a day an email is given up and shown as failed.
 */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims up to `limit` due emails (pending and due, or claimed by a sender whose claim lapsed). The conditional
 * UPDATE is the guard: with several senders (CLI and server, or several instances on PostgreSQL) each email goes to
 * one of them. `only` claims one given email (the CLI's test send).
 */
export async function claimDueEmails(ctx: DomainContext, limit: number, only?: string): Promise<ClaimedEmail[]> {
  const now = nowIso(ctx);
  const claim = newId('mail');
  const until = new Date(ctx.clock.now().getTime() + CLAIM_MS).toISOString();
  const rows = await ctx.store.writer.write(async (trx) => {
    let due = trx
      .selectFrom('outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('claimed_until', '<=', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit);
    if (only !== undefined) due = due.where('id', '=', only);
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('outbox')
      .set({ state: 'sending', claim, claimed_until: until })
      .where('id', 'in', ids)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('claimed_until', '<=', now)]),
        ]),
      )
      .execute();
    return trx.selectFrom('outbox').selectAll().where('claim', '=', claim).execute();
  });
  return rows.map((row) => toClaimed(ctx, row));
}

function toClaimed(ctx: DomainContext, row: OutboxTable): ClaimedEmail {
  return {
    id: row.id,
    claim: row.claim!,
    purpose: row.purpose as OutboxPurpose,
    to: row.to_address,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    payload: JSON.parse(ctx.secrets.open(row.payload)) as OutboxPayload,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
}

/**
 * The outcome of one attempt; `dropped` when there was nothing left to say (every lead deleted meanwhile), `failed`
 * when it is not to be tried again (a test email answers whether email works now; a retry an hour later would
 * only confuse).
 */
export type Settlement =
  | { state: 'sent' }
  | { state: 'dropped' }
  | { state: 'retry'; error: string }
  | { state: 'failed'; error: string }
  /** Not tried yet: it waits for something to be ready (its PDF) and is looked at again at `at`; no attempt counted. */
  | { state: 'later'; at: string };

/** Records an attempt's outcome under the sender's claim; returns the email's new state. */
export async function settleEmail(ctx: DomainContext, email: ClaimedEmail, outcome: Settlement): Promise<string> {
  const now = ctx.clock.now();
  const attempts = outcome.state === 'later' ? email.attempts : email.attempts + 1;
  const set =
    outcome.state === 'later'
      ? { state: 'pending', next_attempt_at: outcome.at }
      : outcome.state === 'retry'
        ? now.getTime() - Date.parse(email.createdAt) + retryDelayMs(attempts) > GIVE_UP_AFTER_MS
          ? { state: 'failed', last_error: outcome.error }
          : {
              state: 'pending',
              last_error: outcome.error,
              next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
            }
        : outcome.state === 'failed'
          ? { state: 'failed', last_error: outcome.error }
          : { state: outcome.state, sent_at: outcome.state === 'sent' ? now.toISOString() : null };
  // A visitor's address is kept no longer than it takes to send to it.
  const settled =
    set.state !== 'pending' && email.purpose === 'confirmation' ? { to_address: CONFIRMATION_RECIPIENT } : {};
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('outbox')
      .set({ ...set, ...settled, attempts, claim: null, claimed_until: null })
      .where('id', '=', email.id)
      .where('claim', '=', email.claim)
      .execute(),
  );
  return set.state;
}

/**
 * Sent, failed and dropped emails are kept 30 days for the status screens, then deleted; so are old confirmation
 * counts.
 */
const KEEP_SETTLED_MS = 30 * 24 * 60 * 60_000;

export async function pruneOutbox(ctx: DomainContext): Promise<void> {
  const cutoff = new Date(ctx.clock.now().getTime() - KEEP_SETTLED_MS).toISOString();
  await ctx.store.writer.write(async (trx) => {
    await trx
      .deleteFrom('outbox')
      .where('state', 'in', ['sent', 'failed', 'dropped'])
      .where('created_at', '<', cutoff)
      .execute();
    // The confirmations' counts (sender-confirmation.ts) matter for the day they count: rows before yesterday go.
    const yesterday = new Date(ctx.clock.now().getTime() - 24 * 60 * 60_000).toISOString().slice(0, 10);
    await trx.deleteFrom('confirmation_sends').where('day', '<', yesterday).execute();
    await trx.deleteFrom('confirmation_counts').where('day', '<', yesterday).execute();
  });
}

export interface OutboxStatus {
  /** Emails waiting (pending or being sent), and when the oldest was queued. */
  waiting: number;
  oldestWaitingAt: string | null;
  lastSent: { at: string; purpose: OutboxPurpose; to: string } | null;
  lastFailure: { at: string; purpose: OutboxPurpose; to: string; error: string; gaveUp: boolean } | null;
}

/**
 * The outbox as the Notifications screen and `leadscan notify status` show it: for one person in a workspace, for
 * a whole workspace (owners), or for the server (`workspaceId: null`, the operator's CLI).
 */
export async function outboxStatus({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string | null; userId?: string }>): Promise<OutboxStatus> {
  let scoped = ctx.store.db.selectFrom('outbox');
  if (input.workspaceId !== null) scoped = scoped.where('workspace_id', '=', input.workspaceId);
  if (input.userId !== undefined) scoped = scoped.where('user_id', '=', input.userId);
  const [waiting, sent, failure] = await Promise.all([
    scoped
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('state', 'in', ['pending', 'sending'])
      .executeTakeFirstOrThrow(),
    scoped
      .select(['sent_at', 'purpose', 'to_address'])
      .where('state', '=', 'sent')
      .orderBy('sent_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    scoped
      .select(['next_attempt_at', 'created_at', 'purpose', 'to_address', 'last_error', 'state', 'attempts'])
      .where('last_error', 'is not', null)
      .where('state', 'in', ['pending', 'failed'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    waiting: Number(waiting.n),
    oldestWaitingAt: (waiting.oldest as string | null) ?? null,
    lastSent: sent ? { at: sent.sent_at!, purpose: sent.purpose as OutboxPurpose, to: sent.to_address } : null,
    lastFailure: failure
      ? {
          at: failure.created_at,
          purpose: failure.purpose as OutboxPurpose,
          to: failure.to_address,
          error: failure.last_error!,
          gaveUp: failure.state === 'failed',
        }
      : null,
  };
}

/**
 * On PostgreSQL, whether this transaction holds the notifier's lock (released at COMMIT): with several instances
 * one of them notices new leads and writes the emails at a time. SQLite has one writer and always holds it.
 */
export async function holdsNotifierLock(trx: Transaction<Schema>, ops: DialectOps): Promise<boolean> {
  return ops.tryLock(trx, 'leadscan.notifier');
}
