import type { Kysely, Migration } from 'kysely';

/**
 * Quotes, part one (docs/quotes.md): what a workspace quotes with.
 * - `workspaces` gain the currency (ISO 4217) and locale (BCP 47) amounts are shown in, up to three named taxes
 *   (`taxes`, JSON `[{ name, rate, onByDefault }]`, rate in thousandths of a percent), the default validity and terms
 *   of a quote, and the business's details printed on it (`tax_numbers`: JSON `[{ name, value }]`).
 * - `price_list_items`: what a workspace sells. Money is an integer in the currency's smallest unit (`unit_price`);
 *   `waste` is thousandths of a percent, `coats` and `pack` hundredths (1.5 coats is 150; a pack covering 10 m² is
 *   1000); `taxes` is a JSON array of tax names.
 */
export function quoteSettingsAndPriceList(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('workspaces')
        .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en-US'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('taxes', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('quote_valid_days', 'integer', (c) => c.notNull().defaultTo(30))
        .execute();
      await db.schema.alterTable('workspaces').addColumn('quote_terms', 'text').execute();
      await db.schema.alterTable('workspaces').addColumn('business_address', 'text').execute();
      await db.schema.alterTable('workspaces').addColumn('business_phone', 'text').execute();
      await db.schema.alterTable('workspaces').addColumn('business_email', 'text').execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('tax_numbers', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('price_list_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('taxes', 'text', (c) => c.notNull())
        .addColumn('measure', 'text')
        .addColumn('waste', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('coats', 'integer', (c) => c.notNull().defaultTo(100))
        .addColumn('pack', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('price_list_items_workspace')
        .on('price_list_items')
        .columns(['workspace_id', 'name'])
        .execute();
    },
  };
}
