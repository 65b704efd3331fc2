import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { binary } from './0001-initial.js';

/**
 * Documents as files (docs/documents.md):
 * - `documents`: one row per PDF of a sent document (a quote revision's, its accepted copy). The model the PDF is
 *   drawn from is frozen into `model` in the send's (or the accept's) transaction, with what a related document needs
 *   to be made the same way (`frame`); the row is also the durable render job (`state` pending → done | failed,
 *   `attempts`, a claim that lapses), and once rendered it holds the PDF's bytes, SHA-256 and size, served as
 *   stored ever after. An accepted copy waits for the sent PDF (`depends_on`), whose SHA-256 its acceptance page
 *   prints. Rows go with their quote (erasure, retention) and their workspace.
 * - `workspaces`: the business's logo (PNG or JPEG bytes, its type and size in pixels) and the paper chosen in
 *   Settings (`A4`, `LETTER`, or null for the locale's).
 */
export function documents(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('quote_id', 'text', (c) => c.references('quotes.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('frame', 'text')
        .addColumn('depends_on', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('pdf', binary(dialect))
        .addColumn('sha256', 'text')
        .addColumn('size', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('rendered_at', 'text')
        .execute();
      await db.schema.createIndex('documents_quote').on('documents').columns(['quote_id', 'purpose']).execute();
      await db.schema.createIndex('documents_due').on('documents').columns(['state', 'next_attempt_at']).execute();
      await db.schema.alterTable('workspaces').addColumn('logo', binary(dialect)).execute();
      await db.schema.alterTable('workspaces').addColumn('logo_type', 'text').execute();
      await db.schema.alterTable('workspaces').addColumn('logo_width', 'integer').execute();
      await db.schema.alterTable('workspaces').addColumn('logo_height', 'integer').execute();
      await db.schema.alterTable('workspaces').addColumn('paper', 'text').execute();
    },
  };
}
