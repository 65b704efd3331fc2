import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Invoices, payments and credit notes (docs/invoices.md):
 *
 * - `invoices`: one row per invoice or credit note (`kind`: invoice, deposit, final, credit_note). A draft has no
 *   number; sending gives it the next of its series (`INV-0003` with the workspace's prefix, `CN-0001`), its issue and
 *   due dates, the locale and payment instructions as Settings say then, and the customer's link (`token_hash` for
 *   lookup, `token_enc` the secret box's copy so staff can show it again). An invoice made from a quote names the
 *   accepted revision (`quote_id`) and its chain (`quote_chain_id`); a credit note names the invoice it credits
 *   (`credit_of`). Money is in the smallest unit; `paid` (its payments), `credited` (its sent credit notes) and
 *   `balance` (total − paid − credited; below zero is owed back to the customer) are kept by the verbs that change
 *   them, in their own transactions, so the Invoices list and its totals read one row an invoice.
 *   Issued invoices are the books: a lead or quote deleted (by hand, erasure, retention) leaves them, with
 *   `lead_id` and `quote_id` set to null; they go only with their workspace.
 * - `invoice_lines`: an invoice's lines; a final invoice's negative line names the earlier invoice it subtracts
 *   (`subtracts_invoice_id`), a credit note's line the invoice line it credits (`credits_line_id`).
 * - `invoice_payments`: payments recorded by hand (date, amount, method, reference, who recorded it).
 * - `invoice_counters`: the last number of each series (`invoice`, `credit_note`) per workspace, taken in the
 *   transaction of the send, as quotes' numbers are: no gap and no repeat with any number of instances.
 * - `workspaces` gain the invoice settings: the number prefix (`INV-`), payment terms in days (14), payment
 *   instructions (none) and the books' keeping period in years (10).
 * - `documents.invoice_id`: an invoice's or credit note's PDF is a stored document like a quote's.
 *
 * The chain's links (`credit_of`, `subtracts_invoice_id`, `credits_line_id`) are ids, not foreign keys: they only
 * ever name sent invoices, which are never deleted but with their workspace. `invoices_chain_kind` is the last guard
 * of the chain's rules: one invoice of each kind (whole, deposit, rest) per quote that is not void.
 */
export function invoices(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('invoices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('number', 'text')
        .addColumn('quote_id', 'text', (c) => c.references('quotes.id').onDelete('set null'))
        .addColumn('quote_chain_id', 'text')
        .addColumn('lead_id', 'text', (c) => c.references('leads.id').onDelete('set null'))
        .addColumn('credit_of', 'text')
        .addColumn('customer_name', 'text')
        .addColumn('customer_email', 'text')
        .addColumn('customer_phone', 'text')
        .addColumn('customer_address', 'text')
        .addColumn('title', 'text')
        .addColumn('note', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('tax_rates', 'text', (c) => c.notNull())
        .addColumn('locale', 'text')
        .addColumn('payment_terms_days', 'integer', (c) => c.notNull())
        .addColumn('payment_instructions', 'text')
        .addColumn('issue_date', 'text')
        .addColumn('due_date', 'text')
        .addColumn('subtotal', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('paid', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('credited', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('token_hash', 'text')
        .addColumn('token_enc', 'text')
        .addColumn('credit_reason', 'text')
        .addColumn('void_reason', 'text')
        .addColumn('created_by_user_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addColumn('sent_by_user_id', 'text')
        .addColumn('viewed_at', 'text')
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('voided_at', 'text')
        .execute();
      // The Invoices list, newest first, all and by status (Draft, Sent, Partly paid, Paid, Void).
      await db.schema
        .createIndex('invoices_workspace_created')
        .on('invoices')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('invoices_workspace_status')
        .on('invoices')
        .columns(['workspace_id', 'status', 'created_at', 'id'])
        .execute();
      // Sent (sent or viewed), newest first, and Overdue (open, past due), the longest overdue first: partial indexes
      // whose condition the list's query spells out, as quotes' open index does (migration 0041), so neither sorts.
      await db.schema
        .createIndex('invoices_workspace_sent_created')
        .on('invoices')
        .columns(['workspace_id', 'created_at', 'id'])
        .where(sql<boolean>`status in ('sent', 'viewed')`)
        .execute();
      await db.schema
        .createIndex('invoices_workspace_open_due')
        .on('invoices')
        .columns(['workspace_id', 'due_date', 'id'])
        .where(sql<boolean>`status in ('sent', 'viewed', 'partly_paid')`)
        .execute();
      // The outstanding and overdue totals: the open invoices by due date, with what the sums read (covering).
      await db.schema
        .createIndex('invoices_workspace_due')
        .on('invoices')
        .columns(['workspace_id', 'status', 'due_date', 'currency', 'balance'])
        .execute();
      await db.schema
        .createIndex('invoices_number')
        .on('invoices')
        .columns(['workspace_id', 'number'])
        .unique()
        .execute();
      await db.schema.createIndex('invoices_token').on('invoices').column('token_hash').execute();
      await db.schema.createIndex('invoices_lead').on('invoices').columns(['lead_id', 'created_at']).execute();
      await db.schema.createIndex('invoices_quote').on('invoices').column('quote_id').execute();
      await db.schema.createIndex('invoices_chain').on('invoices').columns(['quote_chain_id', 'created_at']).execute();
      await db.schema.createIndex('invoices_credit_of').on('invoices').column('credit_of').execute();
      await db.schema
        .createIndex('invoices_chain_kind')
        .on('invoices')
        .columns(['quote_chain_id', 'kind'])
        .unique()
        .where(sql<boolean>`status <> 'void' and kind in ('invoice', 'deposit', 'final')`)
        .execute();

      await db.schema
        .createTable('invoice_lines')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('quantity', 'bigint', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('taxes', 'text', (c) => c.notNull())
        .addColumn('subtracts_invoice_id', 'text')
        .addColumn('credits_line_id', 'text')
        .execute();
      await db.schema
        .createIndex('invoice_lines_invoice')
        .on('invoice_lines')
        .columns(['invoice_id', 'position'])
        .execute();
      await db.schema.createIndex('invoice_lines_credits').on('invoice_lines').column('credits_line_id').execute();

      await db.schema
        .createTable('invoice_payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('paid_on', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('recorded_by_user_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invoice_payments_invoice')
        .on('invoice_payments')
        .columns(['invoice_id', 'paid_on', 'id'])
        .execute();
      await db.schema
        .createIndex('invoice_payments_workspace')
        .on('invoice_payments')
        .columns(['workspace_id', 'paid_on'])
        .execute();

      await db.schema
        .createTable('invoice_counters')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('series', 'text', (c) => c.notNull())
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('invoice_counters_pk', ['workspace_id', 'series'])
        .execute();

      await db.schema
        .alterTable('workspaces')
        .addColumn('invoice_prefix', 'text', (c) => c.notNull().defaultTo('INV-'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(14))
        .execute();
      await db.schema.alterTable('workspaces').addColumn('payment_instructions', 'text').execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('books_years', 'integer', (c) => c.notNull().defaultTo(10))
        .execute();

      await db.schema
        .alterTable('documents')
        .addColumn('invoice_id', 'text', (c) => c.references('invoices.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('documents_invoice').on('documents').columns(['invoice_id', 'purpose']).execute();
    },
  };
}
