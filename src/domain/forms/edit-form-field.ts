import type { VerbArgs } from '../context.js';
import { checkNewField, type FormFieldDefinition, type NewFormField } from './form-definition.js';
import { changeSourceForm, fieldNotFound } from './source-form.js';

/**
 * Changes one of a form's fields in place (docs/admin-app.md, "A source's form"): its label, help text, options,
 * consent text and whether it is required, checked as a new field would be against the others. Its id and its kind
 * stay, so answers already received keep their meaning; a field unchanged writes and records nothing.
 */
export async function editFormField({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; fieldId: string; field: Omit<NewFormField, 'kind'> }>): Promise<FormFieldDefinition> {
  return changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    const at = form.fields.findIndex((f) => f.id === input.fieldId);
    const current = form.fields[at];
    if (!current) throw fieldNotFound(input.fieldId);
    const others = form.fields.filter((f) => f.id !== current.id);
    const field = { ...checkNewField({ ...input.field, kind: current.kind }, others), id: current.id };
    if (JSON.stringify(field) === JSON.stringify(current)) return { form: null, result: current };
    const fields = [...form.fields];
    fields[at] = field;
    return { form: { ...form, fields }, result: field };
  });
}
