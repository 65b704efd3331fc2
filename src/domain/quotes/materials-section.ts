import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { NewLine } from './measured-lines.js';
import { GENERAL_TITLE, insertSections, lastSectionId, storeSectionOrder } from './quote-sections.js';

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
 * Where a line goes when no section is named (a free line, items added in the builder): the last section that is
 * neither a measured room's nor the Materials section, so work typed after the rooms or the materials lands in
 * neither; in a quote of rooms only, a **General** section made for it, before the Materials section. The last
 * section otherwise (docs/quotes.md, "Sections and alternatives").
 */
export async function defaultSectionId(trx: Transaction<Schema>, quoteId: string): Promise<string> {
  const sections = await trx
    .selectFrom('quote_sections')
    .select(['id', 'title', 'choice', 'room', 'position'])
    .where('quote_id', '=', quoteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const materials = (s: (typeof sections)[number]) => s.title === MATERIALS_TITLE && s.choice === null;
  const free = sections.filter((s) => !s.room && !materials(s)).at(-1);
  if (free) return free.id;
  if (!sections.some((s) => s.room)) return lastSectionId(trx, quoteId);
  const [general] = await insertSections(trx, quoteId, [{ title: GENERAL_TITLE }]);
  // After the rooms, before the materials: as a new quote from scans places it.
  const at = sections.findIndex(materials);
  if (at >= 0) {
    const ids = sections.map((s) => s.id);
    ids.splice(at, 0, general!);
    await storeSectionOrder(trx, quoteId, ids, new Map(sections.map((s) => [s.id, Number(s.position)])));
  }
  return general!;
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
