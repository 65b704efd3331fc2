import { setQuoteLineIntegers } from '../../storage/quote-lines-sql.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError, type FieldError } from '../errors.js';
import { queueQuoteEmails } from '../notifications/quote-emails.js';
import { checkText } from '../text-input.js';
import { ACCEPTANCE_VERSION, acceptanceHash } from './acceptance-hash.js';
import { requireAnswerable } from './answer-rules.js';
import { moveLeadForQuote } from './quote-rows.js';
import { refreshQuoteOutcome } from './quote-outcome.js';
import { lockQuoteByToken, quoteStates } from './quote-states.js';
import { freezeAcceptedCopy } from './quote-documents.js';
import {
  findQuoteRow,
  loadQuoteView,
  storeTotals,
  timeZoneOf,
  type QuoteView,
  type SentChoices,
} from './quote-view.js';

/**
 * The customer accepts the revision their link shows: they typed their full name and ticked "I accept this quote and
 * its terms". Kept: the name, the time, which optional lines they ticked, and the SHA-256 of the revision's content
 * as accepted (docs/quotes.md). Final; the lead moves to `won` ("by customer") when its pipeline has that stage and
 * it sits in an earlier one (or in `lost`).
 * Queues, in the same transaction, the sender's notice and the customer's copy (`queueQuoteEmails`): a crash cannot
 * keep the answer and lose its emails. Answers the quote and its sender.
 */
export async function acceptQuote({
  ctx,
  input,
}: VerbArgs<{
  token: string;
  /** The revision the page showed (a hidden field): an older one is refused with "this quote was updated". */
  revision: number;
  name: string;
  agreed: boolean;
  /** Ids of the optional lines ticked; not given keeps the sender's ticks. */
  chosenLineIds?: string[];
  /**
   * The alternatives the customer took: a section id per choice ("choose one"); a choice with none of its sections
   * named keeps the sender's recommendation. Ids of no alternative of this revision are ignored.
   */
  chosenSectionIds?: string[];
}>): Promise<{ quote: QuoteView; sentByUserId: string | null }> {
  const errors: FieldError[] = [];
  const name = checkText(input.name, 'name', 'Your name').trim();
  if (name === '') errors.push({ field: 'name', code: 'required', message: 'Type your full name to accept' });
  if (name.length > 200) errors.push({ field: 'name', code: 'too_long', message: 'At most 200 characters', max: 200 });
  if (!input.agreed)
    errors.push({ field: 'agreed', code: 'required', message: 'Tick "I accept this quote and its terms"' });
  if (errors.length > 0) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  return ctx.store.writer.write(async (trx) => {
    // The quote's chain is locked first: a withdraw or a send of a later revision waits for this answer, or this
    // answer for them, on every instance (quote-states.ts).
    const row = await lockQuoteByToken(ctx, trx, input.token);
    requireAnswerable(row, input.revision, await timeZoneOf(trx, row.workspace_id), ctx.clock.now(), 'accept');
    const at = nowIso(ctx);
    const optional = await trx
      .selectFrom('quote_lines')
      .select(['id', 'chosen'])
      .where('quote_id', '=', row.id)
      .where('optional', '=', 1)
      .execute();
    // What the sender left ticked and chosen, kept beside the answer so the sender's notice can say what changed.
    const alternatives = await trx
      .selectFrom('quote_sections')
      .select(['id', 'choice', 'chosen'])
      .where('quote_id', '=', row.id)
      .where('choice', 'is not', null)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const sentChoices: SentChoices = {
      lines: optional.filter((line) => Number(line.chosen) === 1).map((line) => line.id),
      sections: alternatives.filter((section) => Number(section.chosen) === 1).map((section) => section.id),
    };
    let priced: QuoteView;
    if (input.chosenLineIds !== undefined || input.chosenSectionIds !== undefined) {
      if (input.chosenLineIds !== undefined) {
        const ticks = optional.map((line) => ({ id: line.id, value: input.chosenLineIds!.includes(line.id) ? 1 : 0 }));
        const changed = ticks.filter((tick, i) => Number(optional[i]!.chosen) !== tick.value);
        if (changed.length > 0) await setQuoteLineIntegers(trx, row.id, 'chosen', changed);
      }
      for (const [group, taken] of takenAlternatives(alternatives, input.chosenSectionIds ?? [])) {
        await trx
          .updateTable('quote_sections')
          .set((eb) => ({ chosen: eb.case().when('id', '=', taken).then(1).else(0).end() }))
          .where('quote_id', '=', row.id)
          .where('choice', '=', group)
          .execute();
      }
      priced = await storeTotals(ctx, trx, row.id, at, quoteStates.moveFrom('accept'));
    } else {
      priced = await loadQuoteView(ctx, trx, row);
    }
    const hash = acceptanceHash(priced, ACCEPTANCE_VERSION);
    const chosen = priced.lines.filter((l) => l.optional && l.chosen).map((l) => l.id);
    const done = await trx
      .updateTable('quotes')
      .set({
        status: 'accepted',
        accepted_at: at,
        accepted_name: name,
        acceptance_hash: hash,
        acceptance_version: ACCEPTANCE_VERSION,
        chosen_lines: JSON.stringify(chosen),
        sent_choices: JSON.stringify(sentChoices),
        updated_at: at,
      })
      .where('id', '=', row.id)
      .where('status', 'in', quoteStates.moveFrom('accept'))
      .executeTakeFirst();
    changedExactly(done, 1, () => new AppError('quote_final', 'This quote was already answered'));
    await refreshQuoteOutcome(trx, row.chain_id);
    await moveLeadForQuote(ctx, trx, { leadId: row.lead_id, to: 'won', by: { userId: null, label: 'customer' }, at });
    await recordAudit(trx, ctx, {
      action: 'quote.accepted',
      workspaceId: row.workspace_id,
      targetIds: [row.id, row.lead_id],
      details: { revision: Number(row.revision), total: priced.total },
    });
    const quote = await loadQuoteView(
      ctx,
      trx,
      await findQuoteRow(trx, { workspaceId: row.workspace_id, quoteId: row.id }),
    );
    // The accepted copy's PDF, rendered after the sent one (docs/documents.md, "The accepted copy").
    const documentId = await freezeAcceptedCopy(trx, ctx, quote);
    await queueQuoteEmails(trx, ctx, {
      event: 'accepted',
      quoteId: row.id,
      workspaceId: row.workspace_id,
      sentByUserId: row.sent_by_user_id,
      customerEmail: quote.customer.email,
      documentId,
    });
    return { quote, sentByUserId: row.sent_by_user_id };
  });
}

/**
 * The alternative taken in each choice the customer answered: the first id named of each choice group (a form posts
 * one a group); groups with none named keep the sender's choice and are left out.
 */
export function takenAlternatives(
  alternatives: ReadonlyArray<{ id: string; choice: string | null }>,
  chosenIds: readonly string[],
): Map<string, string> {
  const taken = new Map<string, string>();
  for (const id of chosenIds) {
    const section = alternatives.find((s) => s.id === id);
    if (section?.choice && !taken.has(section.choice)) taken.set(section.choice, section.id);
  }
  return taken;
}
