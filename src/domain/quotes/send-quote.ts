import { formatDay } from '../dates.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type DomainContext, type WorkspaceContext, type WorkspaceVerbArgs } from '../context.js';
import { formatMoney } from '../money.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { AppError } from '../errors.js';
import { moveLeadForQuote } from './quote-rows.js';
import { refreshQuoteOutcome } from './quote-outcome.js';
import { nextQuoteNumber } from './quote-number.js';
import { hashQuoteToken, mintQuoteToken } from './quote-token.js';
import { figuresForSend, freezePlans, pricedRooms } from './frozen-plans.js';
import { answeredFirst, answerOf, lockQuote, notEditable, quoteStates } from './quote-states.js';
import { loadContent, todayIn, viewOf, type QuoteView } from './quote-view.js';
import type { ScanFigures } from '../scans/measure-scan.js';
import { changedExactly } from '../document-state.js';
import { freezeQuoteDocument } from './quote-documents.js';
import type { Units } from '../units.js';

export interface SentQuote {
  quote: QuoteView;
  /** The customer's link token (the same for every revision of the quote); put it only in the customer's link. */
  token: string;
  /** `{base}/q/{token}`: the page shows it to copy when email is off, the email's button links to it. */
  customerUrl: string;
  /** The revision it replaced on the customer's link, if any (`Q-0007 rev 1`). */
  replacedRevision: number | null;
}

/**
 * Sends a draft: a person's sign-off in the builder (no CLI, no API sends). In one transaction, under the quote's lock
 * (quote-states.ts): the quote's number at its first send (the workspace's counter, so numbers follow send order with
 * no gap and no repeat), the customer's link (kept from an earlier revision, else a new 128-bit token), an earlier
 * sent revision marked replaced, the lead moved to `quoted` when it is in an earlier stage, the priced rooms' floor
 * plans frozen into the revision (its page never reads the scan again), and the audit record. With `email`, the
 * customer's email is queued in it too. Refused: a revision that is no longer a draft (`quote_not_editable`), a quote
 * another revision of which the customer answered (`quote_final`: the link keeps showing the answer), a total below
 * zero (`negative_total`).
 */
export async function sendQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  quoteId: string;
  by: { userId: string | null; label: string };
  /** From the builder: with email on and a customer address, the quote's email is queued in this same transaction. */
  email?: { replyTo: string; senderName: string };
}>): Promise<SentQuote> {
  // Measuring a scan the background sweep has not reached writes its figures in a transaction of its own, which must
  // not nest in the send's: the figures of the draft's scans are read first, and the send takes them only when they
  // still cover its lines (a line priced from another scan meanwhile makes it read them again).
  for (let attempt = 1; ; attempt += 1) {
    const figures = await figuresForSend(ctx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
    try {
      return await ctx.store.writer.write((trx) => sendDraft(ctx, trx, input, figures, attempt < 3));
    } catch (error) {
      if (!(error instanceof FiguresOutdated)) throw error;
    }
  }
}

/** The draft's lines were priced from a scan whose figures were not read before the send's transaction. */
class FiguresOutdated extends Error {}

async function sendDraft(
  ctx: WorkspaceContext,
  trx: Transaction<Schema>,
  input: Parameters<typeof sendQuote>[0]['input'],
  figures: Map<string, ScanFigures | null>,
  strict: boolean,
): Promise<SentQuote> {
  const row = await lockQuote(ctx, trx, { workspaceId: ctx.workspaceId, quoteId: input.quoteId });
  quoteStates.requireMove('send', row.status, (status) => notEditable(row, status));
  const answer = await answerOf(trx, row.chain_id);
  if (answer) throw answeredFirst(answer.status);
  const content = await loadContent(trx, row.id);
  const lines = content.lines;
  if (lines.length === 0)
    throw new AppError('invalid_fields', 'A quote needs at least one line before it is sent', [
      { field: 'lines', code: 'required', message: 'Add a line first' },
    ]);
  if (strict && pricedRooms(lines).some((room) => !figures.has(room.scanId))) throw new FiguresOutdated();
  // The workspace's zone, units and email wording, read once for the whole send.
  const workspace = await trx
    .selectFrom('workspaces')
    .select(['time_zone', 'units', 'name', 'locale', 'business_address', 'business_phone', 'business_email'])
    .where('id', '=', row.workspace_id)
    .executeTakeFirstOrThrow();
  const timeZone = workspace.time_zone ?? 'UTC';
  const today = todayIn(timeZone, ctx.clock.now());
  if (row.valid_until < today) {
    throw new AppError('invalid_fields', `Valid until (${row.valid_until}) has passed; choose a later date`, [
      { field: 'validUntil', code: 'invalid', message: 'Choose today or a later date' },
    ]);
  }
  const total = viewOf(ctx, row, content, timeZone).total;
  if (total < 0) {
    const shown = formatMoney(total, row.currency, workspace.locale ?? 'en-US');
    throw new AppError(
      'negative_total',
      `The total is ${shown}, below zero: a quote asks the customer to pay. ` +
        'Lower the discount or add the work it is taken off, then send it',
    );
  }
  const at = nowIso(ctx);
  // The move itself, on its condition: of two sends of one draft, the second changes nothing and takes no number.
  const claimed = await trx
    .updateTable('quotes')
    .set({ status: quoteStates.moves.send.to })
    .where('id', '=', row.id)
    .where('status', 'in', quoteStates.moveFrom('send'))
    .executeTakeFirst();
  changedExactly(claimed, 1, () => new AppError('quote_not_editable', 'This quote was sent meanwhile'));
  const earlier = await trx
    .selectFrom('quotes')
    .select(['id', 'revision', 'status', 'token_hash', 'token_enc'])
    .where('chain_id', '=', row.chain_id)
    .where('id', '!=', row.id)
    .where('token_enc', 'is not', null)
    .orderBy('revision', 'desc')
    .executeTakeFirst();
  const token = earlier?.token_enc ? ctx.secrets.open(earlier.token_enc) : mintQuoteToken();
  const number = row.number ?? (await nextQuoteNumber(trx, row.workspace_id));
  const plans = await freezePlans(trx, {
    workspaceId: row.workspace_id,
    lines,
    units: (workspace.units ?? 'metric') as Units,
    figures,
  });
  const sent = await trx
    .updateTable('quotes')
    .set({
      number,
      plans: JSON.stringify(plans),
      sent_at: at,
      sent_by_user_id: input.by.userId,
      token_hash: hashQuoteToken(token),
      token_enc: earlier?.token_enc ?? ctx.secrets.seal(token),
      updated_at: at,
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const replaced = await trx
    .updateTable('quotes')
    .set({ status: quoteStates.moves.replace.to, updated_at: at })
    .where('chain_id', '=', row.chain_id)
    .where('id', '!=', row.id)
    .where('status', 'in', quoteStates.moveFrom('replace'))
    .returning('revision')
    .execute();
  await moveLeadForQuote(ctx, trx, { leadId: row.lead_id, to: 'quoted', by: input.by, at });
  await refreshQuoteOutcome(trx, row.chain_id);
  await recordAudit(trx, ctx, {
    action: 'quote.sent',
    workspaceId: row.workspace_id,
    targetIds: [row.id, row.lead_id],
    details: { revision: Number(row.revision), total: Number(sent.total) },
  });
  // The lines read above are the revision's as sent: a sent revision's lines never change.
  const quote = viewOf(ctx, sent, content, timeZone);
  // Its PDF: the document frozen now, rendered by the document job (docs/documents.md, "Frozen at send").
  const documentId = await freezeQuoteDocument(trx, ctx, quote, plans);
  if (input.email && ctx.mail && quote.customer.email)
    await queueQuoteEmail(trx, ctx, quote, workspace, input.email, replaced.length > 0, documentId);
  return {
    quote,
    token,
    customerUrl: quote.customerUrl!,
    replacedRevision: replaced.length > 0 ? Math.max(...replaced.map((r) => Number(r.revision))) : null,
  };
}

/**
 * The customer's email of a send (docs/quotes.md, "Send"), in the workspace's locale and currency: the sender's
 * message when the draft has one, and the business's address, phone and email as Settings has them now.
 */
async function queueQuoteEmail(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  quote: QuoteView,
  settings: {
    name: string;
    locale?: string | null;
    business_address?: string | null;
    business_phone?: string | null;
    business_email?: string | null;
  },
  from: { replyTo: string; senderName: string },
  replaces: boolean,
  documentId: string,
): Promise<void> {
  const locale = settings.locale ?? 'en-US';
  const validUntil = formatDay(quote.validUntil, locale);
  await enqueueEmail(trx, ctx, {
    purpose: 'quote_sent',
    to: quote.customer.email!,
    workspaceId: quote.workspaceId,
    payload: {
      kind: 'quote_sent',
      workspaceName: settings.name,
      number: quote.number!,
      revision: quote.revision,
      link: quote.customerUrl!,
      senderName: from.senderName,
      replyTo: from.replyTo,
      customerName: quote.customer.name,
      total: formatMoney(quote.total, quote.currency, locale),
      validUntil,
      replaces,
      documentId,
      message: quote.sendMessage,
      business: {
        address: settings.business_address ?? null,
        phone: settings.business_phone ?? null,
        email: settings.business_email ?? null,
      },
    },
  });
}
