import type { VerbArgs } from '../context.js';
import { checkNewField, type FormFieldDefinition, type NewFormField } from './form-definition.js';
import { changeSourceForm } from './source-form.js';

/** Adds a field at the end of a source's hosted form (docs/admin-app.md, "A source's form"). */
export async function addFormField({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; field: NewFormField }>): Promise<FormFieldDefinition> {
  return changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    const field = checkNewField(input.field, form.fields);
    return { form: { ...form, fields: [...form.fields, field] }, result: field };
  });
}
