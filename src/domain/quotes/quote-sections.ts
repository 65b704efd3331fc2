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

/** Alternatives offered as one choice: two to four. */
export const MIN_CHOICE = 2;
export const MAX_CHOICE = 4;

/** A section to add: its heading (null for none) and, for an alternative, its choice group. */
export interface NewSection {
  title: string | null;
  choice?: string | null;
  recommended?: boolean;
  chosen?: boolean;
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
