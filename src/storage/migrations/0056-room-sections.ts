import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `quote_sections.room`: 1 for a section made for a measured room (a quote from scans has one a room, headed with the
 * room's name), 0 for the others: the General and Materials sections, the sections a person adds, the alternatives.
 * A line that names no section (a free line, an item not priced from a room) goes in the last section that is not a
 * room's nor the Materials section; a quote of rooms only gets a General section for it (docs/quotes.md, "Sections
 * and alternatives"). Before this a free line landed among the last room's lines.
 *
 * The sections made before are marked by what they hold: headed, not an alternative, with measured lines only.
 */
export function roomSections(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('quote_sections')
        .addColumn('room', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await markRoomSections(db);
    },
  };
}

/** Marks the sections made before the column by what they hold (the migration's, and a test's to compare with). */
export async function markRoomSections(db: Kysely<unknown>): Promise<void> {
  const lines = (measured: string) =>
    sql.raw(`select 1 from quote_lines l where l.section_id = quote_sections.id and l.source ${measured}`);
  await sql`update quote_sections set room = 1
    where title is not null and choice is null and title not in ('General', 'Materials')
      and exists (${lines('is not null')}) and not exists (${lines('is null')})`.execute(db);
}
