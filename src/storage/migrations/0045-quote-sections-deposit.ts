import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Sections, alternatives and the deposit of a quote (docs/quotes.md, "Sections and alternatives", "The deposit"):
 * - `quote_sections`: a revision's sections, in `position` order, each with an optional heading (`title`), a
 *   choice group (`choice`: sections sharing one are alternatives, "choose one") with the `recommended` one, and
 *   which alternative is `chosen` (the sender's recommendation until the customer answers; as accepted after).
 * - `quote_lines.section_id`: the section a line sits in. Every line has one (the verbs keep it so); it is not a
 *   foreign key, because deleting a quote would then check every line per section deleted, and the lines already go
 *   with their quote.
 * - `quotes.deposit_percent` (thousandths of a percent) or `quotes.deposit_amount` (smallest unit), taxes
 *   included; both null: no deposit. The workspace's default for new quotes in the same two columns of `workspaces`.
 * - `quotes.show_measurements`: whether the customer's page says how each quantity was measured.
 * - `quotes.acceptance_version`: the version of the canonical JSON an acceptance hashed (1 before this migration).
 * - `quotes.sent_choices`: at acceptance, the optional lines and alternatives as the sender left them, so the
 *   sender's notice can say what the customer changed.
 * - `price_list_items.customer_description`: what the customer reads under an item's name.
 *
 * Every existing revision gets one section without a heading holding its lines, in their order: a quote made before
 * reads as it did, and its acceptance hash (version 1, which has no sections) verifies as before. The section's id is
 * made from its quote's (`qsc_` + the quote id's tail), so the backfill is two set statements on either database.
 */
export function quoteSectionsAndDeposit(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('quote_sections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('quote_id', 'text', (c) => c.notNull().references('quotes.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('choice', 'text')
        .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('chosen', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createIndex('quote_sections_quote')
        .on('quote_sections')
        .columns(['quote_id', 'position'])
        .execute();
      await db.schema.alterTable('quote_lines').addColumn('section_id', 'text').execute();
      await db.schema.alterTable('quotes').addColumn('deposit_percent', 'integer').execute();
      await db.schema.alterTable('quotes').addColumn('deposit_amount', 'bigint').execute();
      await db.schema
        .alterTable('quotes')
        .addColumn('show_measurements', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('quotes').addColumn('acceptance_version', 'integer').execute();
      await db.schema.alterTable('quotes').addColumn('sent_choices', 'text').execute();
      await db.schema.alterTable('workspaces').addColumn('deposit_percent', 'integer').execute();
      await db.schema.alterTable('workspaces').addColumn('deposit_amount', 'bigint').execute();
      await db.schema.alterTable('price_list_items').addColumn('customer_description', 'text').execute();

      await sql`insert into quote_sections (id, quote_id, position, title, choice, recommended, chosen)
        select 'qsc_' || substr(id, 5), id, 0, null, null, 0, 1 from quotes`.execute(db);
      await sql`update quote_lines set section_id = 'qsc_' || substr(quote_id, 5)`.execute(db);
      await sql`update quotes set acceptance_version = 1 where acceptance_hash is not null`.execute(db);
    },
  };
}
