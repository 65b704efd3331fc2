import type { VerbArgs } from '../context.js';
import { changeSourceForm, fieldNotFound } from './source-form.js';

/** Moves a field one place up or down; at the top (or bottom) already, nothing changes and nothing is recorded. */
export async function moveFormField({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; fieldId: string; direction: 'up' | 'down' }>): Promise<void> {
  await changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    const at = form.fields.findIndex((f) => f.id === input.fieldId);
    if (at < 0) throw fieldNotFound(input.fieldId);
    const to = input.direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= form.fields.length) return { form: null, result: undefined };
    const fields = [...form.fields];
    [fields[at], fields[to]] = [fields[to]!, fields[at]!];
    return { form: { ...form, fields }, result: undefined };
  });
}
