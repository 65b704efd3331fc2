import type { Kysely, Migration } from 'kysely';

/**
 * The hosted form that fits the owner's site (docs/admin-app.md, "A source's form"; docs/api.md, `pageUrl`):
 * - `leads.page_url`: the address of the page the form was embedded in (or a direct post's `pageUrl`), or null.
 * - `lead_source_texts.form_fields`: the source's own form fields, a JSON list (forms/form-definition.ts); null
 *   means none. Kept beside the form's texts, so removing a source or a workspace removes them with the texts.
 * - `lead_source_texts.accent`: the form's accent colour, `#rrggbb`, or null for the default.
 */
export function hostedFormFields(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('leads').addColumn('page_url', 'text').execute();
      await db.schema.alterTable('lead_source_texts').addColumn('form_fields', 'text').execute();
      await db.schema.alterTable('lead_source_texts').addColumn('accent', 'text').execute();
    },
  };
}
