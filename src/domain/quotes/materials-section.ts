import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { NewLine } from './measured-lines.js';
import { insertSections, lastSectionId } from './quote-sections.js';

/** The heading of the section that holds what is bought for the whole job (docs/quotes.md, "Lines from scans"). */
export const MATERIALS_TITLE = 'Materials';

/**
 * The revision's Materials section (a section headed so that is not an alternative), made after its last section when
 * it has none yet. Inside the caller's transaction, after the quote's lock.
 */
export async function materialsSectionId(trx: Transaction<Schema>, quoteId: string): Promise<string> {
  const found = await trx
    .selectFrom('quote_sections')
    .select('id')
    .where('quote_id', '=', quoteId)
    .where('title', '=', MATERIALS_TITLE)
    .where('choice', 'is', null)
    .orderBy('position')
    .executeTakeFirst();
  return found?.id ?? (await insertSections(trx, quoteId, [{ title: MATERIALS_TITLE }]))[0]!;
}

/** The lines with the materials among them put in the Materials section (made when needed); the others as they were. */
export async function placeMaterials(
  trx: Transaction<Schema>,
  quoteId: string,
  lines: readonly NewLine[],
): Promise<NewLine[]> {
  if (!lines.some((line) => line.materials)) return [...lines];
  const sectionId = await materialsSectionId(trx, quoteId);
  return lines.map((line) => (line.materials ? { ...line, sectionId } : line));
}

/**
 * Where a line goes when no section is named (a free line, items added in the builder): the last section that is not
 * the Materials section, so work typed after the materials does not land among them; the last section otherwise.
 */
export async function defaultSectionId(trx: Transaction<Schema>, quoteId: string): Promise<string> {
  const row = await trx
    .selectFrom('quote_sections')
    .select('id')
    .where('quote_id', '=', quoteId)
    .where((eb) => eb.or([eb('title', 'is', null), eb('title', '!=', MATERIALS_TITLE), eb('choice', 'is not', null)]))
    .orderBy('position', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id ?? (await lastSectionId(trx, quoteId));
}

/**
 * Lines priced from a room, added to a quote later (the builder's Add lines), go in the section headed with the room's
 * name when the quote has one that is not an alternative (a quote made from scans has one a room); the others as they
 * were.
 */
export async function placeInRooms(
  trx: Transaction<Schema>,
  quoteId: string,
  lines: readonly NewLine[],
): Promise<NewLine[]> {
  const names = [...new Set(lines.flatMap((line) => (line.room && !line.sectionId ? [line.room.name] : [])))];
  if (names.length === 0) return [...lines];
  const rows = await trx
    .selectFrom('quote_sections')
    .select(['id', 'title'])
    .where('quote_id', '=', quoteId)
    .where('title', 'in', names)
    .where('choice', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const byName = new Map<string, string>();
  for (const row of rows) if (row.title !== null && !byName.has(row.title)) byName.set(row.title, row.id);
  return lines.map((line) =>
    line.room && !line.sectionId && byName.has(line.room.name)
      ? { ...line, sectionId: byName.get(line.room.name) }
      : line,
  );
}
