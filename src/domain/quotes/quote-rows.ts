import type { Transaction } from 'kysely';
import { insertQuoteLines } from '../../storage/quote-lines-sql.js';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { newId } from '../ids.js';
import { newHistoryId } from '../stages/stage-history.js';
import { loadStages } from '../stages/stage.js';
import { lineAmount } from '../money.js';
import type { NewLine } from './measured-lines.js';
import { defaultSectionId } from './materials-section.js';

/**
 * The columns of a new draft revision that say nothing has happened to it yet: no link until its send, no view, no
 * answer. A new quote, a copy and a revision all start from these.
 */
export function freshDraft(at: string, userId: string | null | undefined) {
  return {
    // The link (token) is set on the revision at its send; until then the customer sees the earlier one.
    token_hash: null,
    token_enc: null,
    created_by_user_id: userId ?? null,
    created_at: at,
    updated_at: at,
    sent_at: null,
    sent_by_user_id: null,
    viewed_at: null,
    view_count: 0,
    accepted_at: null,
    accepted_name: null,
    acceptance_hash: null,
    acceptance_version: null,
    sent_choices: null,
    chosen_lines: null,
    declined_at: null,
    decline_reason: null,
    withdrawn_at: null,
    plans: null,
    // The email's message is the sender's words for one send: every new draft starts without one.
    send_message: null,
  } as const;
}

/**
 * Appends lines to a revision after its last position, in one statement (amounts computed here; totals by
 * `storeTotals`). Each goes into its own `sectionId`, else into `sectionId` given here, else into the last section
 * that is not the Materials section (`defaultSectionId`).
 */
export async function insertLines(
  trx: Transaction<Schema>,
  quoteId: string,
  lines: readonly NewLine[],
  sectionId?: string,
): Promise<string[]> {
  if (lines.length === 0) return [];
  const into = sectionId ?? (lines.every((l) => l.sectionId) ? '' : await defaultSectionId(trx, quoteId));
  const last = await trx
    .selectFrom('quote_lines')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('quote_id', '=', quoteId)
    .executeTakeFirst();
  const first = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  const rows = lines.map((line, i) => ({
    id: newId('qln'),
    quote_id: quoteId,
    position: first + i,
    description: line.description,
    quantity: line.quantity,
    unit: line.unit,
    unit_price: line.unitPrice,
    amount: lineAmount(line.quantity, line.unitPrice),
    taxes: JSON.stringify(line.taxes),
    optional: line.optional ? 1 : 0,
    chosen: line.chosen ? 1 : 0,
    source: line.source === null ? null : JSON.stringify(line.source),
    section_id: line.sectionId ?? into,
  }));
  await insertQuoteLines(trx, rows);
  return rows.map((r) => r.id);
}

/**
 * Copies a revision's sections and lines (a new revision, a copy) with new ids, in order: the sections keep their
 * headings, choice groups, recommendation and choice, and each line its section.
 */
export async function copyLines(trx: Transaction<Schema>, fromQuoteId: string, toQuoteId: string): Promise<void> {
  const sections = await trx
    .selectFrom('quote_sections')
    .selectAll()
    .where('quote_id', '=', fromQuoteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const newIds = new Map(sections.map((s) => [s.id, newId('qsc')]));
  if (sections.length === 0) newIds.set('', newId('qsc'));
  await trx
    .insertInto('quote_sections')
    .values(
      sections.length === 0
        ? [
            {
              id: newIds.get('')!,
              quote_id: toQuoteId,
              position: 0,
              title: null,
              choice: null,
              recommended: 0,
              chosen: 1,
            },
          ]
        : sections.map((s, position) => ({ ...s, id: newIds.get(s.id)!, quote_id: toQuoteId, position })),
    )
    .execute();
  const first = newIds.values().next().value!;
  const rows = await trx
    .selectFrom('quote_lines')
    .selectAll()
    .where('quote_id', '=', fromQuoteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  await insertQuoteLines(
    trx,
    rows.map((row, position) => ({
      ...row,
      id: newId('qln'),
      quote_id: toQuoteId,
      position,
      section_id: newIds.get(row.section_id ?? '') ?? first,
    })),
  );
}

/** What a quote's move does to its lead (docs/quotes.md, "Lead stages"). */
export type LeadMove = 'quoted' | 'won' | 'lost';

/**
 * Moves a quote's lead after a move of the quote, forward only, when its pipeline has the stage, recording the move in
 * its history as `by` (inside the caller's transaction):
 * - `quoted` (a send): from a stage before `quoted`;
 * - `won` (an accept): from a stage before `won`, or from `lost` (the customer accepted after declining another
 *   quote of the lead);
 * - `lost` (a decline): from a stage before `won` (or before `lost` without a `won` stage), and only when no quote of
 *   the lead is accepted: a customer's answer never moves a won job back.
 * The lead's row is locked first, so an accept and a decline of two quotes of one lead, at once, see each other's
 * answer (the quote's own move is written before, under its chain's lock).
 */
export async function moveLeadForQuote(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  input: {
    leadId: string;
    to: LeadMove;
    by: { userId: string | null; label: string };
    at: string;
  },
): Promise<boolean> {
  const lead = await ctx.store.ops
    .lockedRead(trx.selectFrom('leads').select(['id', 'pipeline_id', 'stage']).where('id', '=', input.leadId))
    .executeTakeFirst();
  if (!lead) return false;
  const stages = await loadStages(trx, lead.pipeline_id);
  const to = stages.find((s) => s.key === input.to);
  const from = stages.find((s) => s.key === lead.stage);
  if (!to || lead.stage === to.key) return false;
  // The stage a move must start below: `quoted` and `won` their own; `lost` the won stage, when there is one.
  const ceiling = input.to === 'lost' ? (stages.find((s) => s.key === 'won') ?? to) : to;
  const fromLost = input.to === 'won' && lead.stage === 'lost';
  if (from && from.position >= ceiling.position && !fromLost) return false;
  if (input.to === 'lost') {
    const accepted = await trx
      .selectFrom('quotes')
      .select('id')
      .where('lead_id', '=', lead.id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    if (accepted) return false;
  }
  await trx.updateTable('leads').set({ stage: to.key }).where('id', '=', lead.id).execute();
  await trx
    .insertInto('stage_history')
    .values({
      id: newHistoryId(),
      lead_id: lead.id,
      from_stage: lead.stage,
      from_name: from?.name ?? lead.stage,
      to_stage: to.key,
      to_name: to.name,
      by_user_id: input.by.userId,
      by_label: input.by.label,
      moved_at: input.at,
    })
    .execute();
  return true;
}
