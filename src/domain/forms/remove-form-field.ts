import type { VerbArgs } from '../context.js';
import { changeSourceForm, fieldNotFound } from './source-form.js';

/** Removes a field from the form. Answers already stored on leads stay, under the field's label. */
export async function removeFormField({ ctx, input }: VerbArgs<{ sourceId: string; fieldId: string }>): Promise<void> {
  await changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    if (!form.fields.some((f) => f.id === input.fieldId)) throw fieldNotFound(input.fieldId);
    return { form: { ...form, fields: form.fields.filter((f) => f.id !== input.fieldId) }, result: undefined };
  });
}
