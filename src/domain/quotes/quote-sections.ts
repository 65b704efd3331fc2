import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { checkText } from '../text-input.js';

/**
 * A revision's sections as its verbs write them (docs/quotes.md, "Sections and alternatives"). Every revision has at
 * least one section and every line sits in one; these helpers keep that true inside the caller's transaction.
 */

/** At most this many sections a quote (a room each: a large house). */
export const MAX_SECTIONS = 60;

/** The heading of a new quote's section for the lines of no room (items not measured), beside the rooms' sections. */
export const GENERAL_TITLE = 'General';

/** Alternatives offered as one choice: two to four. */
export const MIN_CHOICE = 2;
export const MAX_CHOICE = 4;

/** A section to add: its heading (null for none) and, for an alternative, its choice group. */
export interface NewSection {
  title: string | null;
  choice?: string | null;
  recommended?: boolean;
  chosen?: boolean;
  /** A measured room's section (`quote_sections.room`). */
  room?: boolean;
}

/** A section's heading as typed: trimmed, one line, up to 200 characters; empty for none. */
export function checkSectionTitle(value: string, field = 'title'): string | null {
  const text = checkText(value, field, 'The heading').trim();
  if (text.length > 200)
    throw new AppError('invalid_fields', 'The heading is longer than 200 characters', [
      { field, code: 'too_long', message: 'At most 200 characters', max: 200 },
    ]);
  return text === '' ? null : text;
}

/** Appends sections to a revision after its last one, in one statement; answers their ids in order. */
export async function insertSections(
  trx: Transaction<Schema>,
  quoteId: string,
  sections: readonly NewSection[],
): Promise<string[]> {
  if (sections.length === 0) return [];
  const last = await trx
    .selectFrom('quote_sections')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('quote_id', '=', quoteId)
    .executeTakeFirst();
  const count = await trx
    .selectFrom('quote_sections')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('quote_id', '=', quoteId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) + sections.length > MAX_SECTIONS)
    throw new AppError('invalid_fields', `A quote has at most ${MAX_SECTIONS} sections`, [
      { field: 'title', code: 'invalid', message: `At most ${MAX_SECTIONS} sections` },
    ]);
  const first = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  const rows = sections.map((section, i) => ({
    id: newId('qsc'),
    quote_id: quoteId,
    position: first + i,
    title: section.title,
    choice: section.choice ?? null,
    recommended: section.recommended ? 1 : 0,
    chosen: section.chosen === false ? 0 : 1,
    room: section.room ? 1 : 0,
  }));
  await trx.insertInto('quote_sections').values(rows).execute();
  return rows.map((r) => r.id);
}

/** The id of a revision's last section (where a line goes when no section is named). */
export async function lastSectionId(trx: Transaction<Schema>, quoteId: string): Promise<string> {
  const row = await trx
    .selectFrom('quote_sections')
    .select('id')
    .where('quote_id', '=', quoteId)
    .orderBy('position', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id ?? (await insertSections(trx, quoteId, [{ title: null }]))[0]!;
}

/** A section of this revision by id, or `quote_section_not_found`. */
export async function requireSection(trx: Transaction<Schema>, quoteId: string, sectionId: string) {
  const row = await trx
    .selectFrom('quote_sections')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('id', '=', sectionId)
    .executeTakeFirst();
  if (!row) throw new AppError('quote_section_not_found', `No section ${sectionId.slice(0, 80)} on this quote`);
  return row;
}

/** A revision's sections in their order, as stored. */
export async function sectionRows(trx: Transaction<Schema>, quoteId: string) {
  return trx
    .selectFrom('quote_sections')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Writes the sections' positions as their order in `ids` (0, 1, …), changing only the rows that moved. */
export async function storeSectionOrder(
  trx: Transaction<Schema>,
  quoteId: string,
  ids: readonly string[],
  positions: ReadonlyMap<string, number>,
): Promise<void> {
  for (const [position, id] of ids.entries()) {
    if (positions.get(id) === position) continue;
    await trx
      .updateTable('quote_sections')
      .set({ position })
      .where('quote_id', '=', quoteId)
      .where('id', '=', id)
      .execute();
  }
}

/**
 * Dissolves every choice group of the revision left with fewer than two sections (an alternative removed, or taken
 * into another choice): the section left is an ordinary one again, and it counts. A group left with two or more keeps
 * one recommended and one chosen section (the first, when the one that was is gone).
 */
export async function tidyChoices(trx: Transaction<Schema>, quoteId: string): Promise<void> {
  const rows = await sectionRows(trx, quoteId);
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    if (row.choice === null) continue;
    groups.set(row.choice, [...(groups.get(row.choice) ?? []), row]);
  }
  for (const members of groups.values()) {
    if (members.length < MIN_CHOICE) {
      await trx
        .updateTable('quote_sections')
        .set({ choice: null, recommended: 0, chosen: 1 })
        .where('quote_id', '=', quoteId)
        .where(
          'id',
          'in',
          members.map((m) => m.id),
        )
        .execute();
      continue;
    }
    const first = members[0]!.id;
    if (!members.some((m) => Number(m.recommended) === 1))
      await trx.updateTable('quote_sections').set({ recommended: 1 }).where('id', '=', first).execute();
    if (members.filter((m) => Number(m.chosen) === 1).length !== 1) {
      const keep = members.find((m) => Number(m.recommended) === 1)?.id ?? first;
      await trx
        .updateTable('quote_sections')
        .set((eb) => ({ chosen: eb.case().when('id', '=', keep).then(1).else(0).end() }))
        .where(
          'id',
          'in',
          members.map((m) => m.id),
        )
        .execute();
    }
  }
}
