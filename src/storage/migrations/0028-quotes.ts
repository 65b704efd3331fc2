import type { Kysely, Migration } from 'kysely';

/**
 * Quotes, part two (docs/quotes.md):
 * - `quotes`: one row per revision. A quote's revisions share `chain_id` (the first revision's id) and, from its
 *   first send, `number` (`Q-0007`); the unique (workspace, number, revision) index is the last guard against a
 *   number given twice. The customer's link is `token_hash` (SHA-256, for lookup) and `token_enc` (the secret box's
 *   copy, so staff can show the link again), shared by the chain's sent revisions.
 * - `quote_lines`: a revision's lines; money in the currency's smallest unit, quantity in hundredths.
 * - `quote_counters`: the last number a workspace gave, incremented in the transaction of a first send, so numbers
 *   follow send order with no gap and no repeat, on any number of instances.
 * Quotes go with their lead (erasure, retention, deletion), lines with their quote.
 */
export function quotes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('quotes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('chain_id', 'text', (c) => c.notNull())
        .addColumn('number', 'text')
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('customer_name', 'text')
        .addColumn('customer_email', 'text')
        .addColumn('customer_phone', 'text')
        .addColumn('customer_address', 'text')
        .addColumn('title', 'text')
        .addColumn('note', 'text')
        .addColumn('terms', 'text')
        .addColumn('valid_until', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('tax_rates', 'text', (c) => c.notNull())
        .addColumn('subtotal', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('token_hash', 'text')
        .addColumn('token_enc', 'text')
        .addColumn('created_by_user_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addColumn('sent_by_user_id', 'text')
        .addColumn('viewed_at', 'text')
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_name', 'text')
        .addColumn('acceptance_hash', 'text')
        .addColumn('chosen_lines', 'text')
        .addColumn('declined_at', 'text')
        .addColumn('decline_reason', 'text')
        .addColumn('withdrawn_at', 'text')
        .execute();
      await db.schema
        .createIndex('quotes_workspace_created')
        .on('quotes')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('quotes_lead').on('quotes').column('lead_id').execute();
      await db.schema.createIndex('quotes_chain').on('quotes').columns(['chain_id', 'revision']).execute();
      await db.schema.createIndex('quotes_token').on('quotes').column('token_hash').execute();
      await db.schema
        .createIndex('quotes_number')
        .on('quotes')
        .columns(['workspace_id', 'number', 'revision'])
        .unique()
        .execute();
      await db.schema
        .createTable('quote_lines')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('quote_id', 'text', (c) => c.notNull().references('quotes.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('quantity', 'bigint', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('taxes', 'text', (c) => c.notNull())
        .addColumn('optional', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('chosen', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('source', 'text')
        .execute();
      await db.schema.createIndex('quote_lines_quote').on('quote_lines').columns(['quote_id', 'position']).execute();
      await db.schema
        .createTable('quote_counters')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
