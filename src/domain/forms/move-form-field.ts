import type { VerbArgs } from '../context.js';
import { changeSourceForm, fieldNotFound } from './source-form.js';

/**
 * Moves a field one place up or down in the form's one order (docs/admin-app.md, "A source's form"): one of the
 * source's own fields by its id, or a built-in one by its name (`phone`). At the top (or bottom) already, nothing
 * changes and nothing is recorded.
 */
export async function moveFormField({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; fieldId: string; direction: 'up' | 'down' }>): Promise<void> {
  await changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    const order = [...form.layout.order];
    const at = order.indexOf(input.fieldId);
    if (at < 0) throw fieldNotFound(input.fieldId);
    const to = input.direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= order.length) return { form: null, result: undefined };
    [order[at], order[to]] = [order[to]!, order[at]!];
    return { form: { ...form, layout: { ...form.layout, order } }, result: undefined };
  });
}
