import type { Kysely, Migration } from 'kysely';

/**
 * The hosted form's built-in fields shaped per source (docs/admin-app.md, "A source's form"):
 * - `lead_source_texts.form_layout`: JSON (domain/forms/form-layout.ts): each built-in field's label, whether it is
 *   shown and whether it is required, and one order for the built-in and the source's own fields. Null means the
 *   form as it always was (name, phone, email, address, message, then the own fields), so existing forms render
 *   byte for byte as before.
 */
export function builtInFormFields(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('lead_source_texts').addColumn('form_layout', 'text').execute();
    },
  };
}
