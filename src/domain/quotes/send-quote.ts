import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { formatMoney } from '../money.js';
import { enqueueEmail } from '../notifications/outbox.js';
import { AppError } from '../errors.js';
import { moveLeadForQuote } from './quote-rows.js';
import { nextQuoteNumber } from './quote-number.js';
import { hashQuoteToken, mintQuoteToken } from './quote-token.js';
import { figuresForSend, freezePlans } from './frozen-plans.js';
import { findQuoteRow, loadLines, requireDraft, todayIn, viewOf, type QuoteView } from './quote-view.js';
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
 * Sends a draft: a person's sign-off in the builder (no CLI, no API sends). In one transaction: the quote's number
 * at its first send (the workspace's counter, so numbers follow send order with no gap and no repeat), the customer's
 * link (kept from an earlier revision, else a new 128-bit token), an earlier sent revision marked replaced, the lead
 * moved to `quoted` when it is in an earlier stage, the priced rooms' floor plans frozen into the revision (its page
 * never reads the scan again), and the audit record. With `email`, the customer's email is queued in it too.
 */
export async function sendQuote({
  ctx,
  input,
}: VerbArgs<{
  workspaceId?: string;
  quoteId: string;
  by: { userId: string | null; label: string };
  /** From the builder: with email on and a customer address, the quote's email is queued in this same transaction. */
  email?: { replyTo: string; senderName: string };
}>): Promise<SentQuote> {
  const draft = await findQuoteRow(ctx.store.db, { workspaceId: input.workspaceId, quoteId: input.quoteId });
  requireDraft(draft);
  const figures = await figuresForSend(ctx, draft.workspace_id, draft.id);
  return ctx.store.writer.write(async (trx) => {
    const row = await findQuoteRow(trx, { workspaceId: input.workspaceId, quoteId: input.quoteId });
    requireDraft(row);
    const lines = await loadLines(trx, row.id);
    if (lines.length === 0)
      throw new AppError('invalid_fields', 'A quote needs at least one line before it is sent', [
        { field: 'lines', code: 'required', message: 'Add a line first' },
      ]);
    // The workspace's zone, units and email wording, read once for the whole send.
    const workspace = await trx
      .selectFrom('workspaces')
      .select(['time_zone', 'units', 'name', 'locale'])
      .where('id', '=', row.workspace_id)
      .executeTakeFirstOrThrow();
    const timeZone = workspace.time_zone ?? 'UTC';
    const today = todayIn(timeZone, ctx.clock.now());
    if (row.valid_until < today) {
      throw new AppError('invalid_fields', `Valid until (${row.valid_until}) has passed; choose a later date`, [
        { field: 'validUntil', code: 'invalid', message: 'Choose today or a later date' },
      ]);
    }
    const at = nowIso(ctx);
    // Claim the draft first: of two sends of one draft, the second changes nothing and takes no number.
    const claimed = await trx
      .updateTable('quotes')
      .set({ status: 'sent' })
      .where('id', '=', row.id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('quote_not_editable', 'This quote was sent meanwhile');
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
      .set({ status: 'replaced', updated_at: at })
      .where('chain_id', '=', row.chain_id)
      .where('id', '!=', row.id)
      .where('status', 'in', ['sent', 'viewed'])
      .returning('revision')
      .execute();
    await moveLeadForQuote(trx, { leadId: row.lead_id, key: 'quoted', onlyForward: true, by: input.by, at });
    await recordAudit(trx, ctx, {
      action: 'quote.sent',
      workspaceId: row.workspace_id,
      targetIds: [row.id, row.lead_id],
      details: { revision: Number(row.revision), total: Number(sent.total) },
    });
    // The lines read above are the revision's as sent: a sent revision's lines never change.
    const quote = viewOf(ctx, sent, lines, timeZone);
    // Its PDF: the document frozen now, rendered by the document job (docs/documents.md, "Frozen at send").
    const documentId = await freezeQuoteDocument(trx, ctx, quote, plans);
    if (input.email && ctx.mail && quote.customer.email)
      await queueQuoteEmail(
        trx,
        ctx,
        quote,
        { name: workspace.name, locale: workspace.locale },
        input.email,
        replaced.length > 0,
        documentId,
      );
    return {
      quote,
      token,
      customerUrl: quote.customerUrl!,
      replacedRevision: replaced.length > 0 ? Math.max(...replaced.map((r) => Number(r.revision))) : null,
    };
  });
}

/** The customer's email of a send (docs/quotes.md, "Send"), in the workspace's locale and currency. */
async function queueQuoteEmail(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  quote: QuoteView,
  settings: { name: string; locale?: string | null },
  from: { replyTo: string; senderName: string },
  replaces: boolean,
  documentId: string,
): Promise<void> {
  const locale = settings.locale ?? 'en-US';
  const validUntil = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${quote.validUntil}T12:00:00Z`),
  );
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
    },
  });
}
