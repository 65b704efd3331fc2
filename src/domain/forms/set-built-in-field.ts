import type { VerbArgs } from '../context.js';
import { checkBuiltInChange, type BuiltInChange, type BuiltInField } from './form-layout.js';
import { changeSourceForm } from './source-form.js';

/**
 * Shapes one of the hosted form's built-in fields (docs/admin-app.md, "A source's form"): its label, whether it is
 * shown and whether a visitor must fill it in. Posts to the intake API are not held to it. The settings it already
 * has change nothing and record nothing.
 */
export async function setBuiltInField({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; name: string; change: BuiltInChange }>): Promise<BuiltInField> {
  return changeSourceForm(ctx, input.sourceId, 'source.form_changed', (form) => {
    const field = checkBuiltInChange(input.name, input.change, form.layout.builtIns);
    const builtIns = form.layout.builtIns.map((b) => (b.name === field.name ? field : b));
    if (JSON.stringify(builtIns) === JSON.stringify(form.layout.builtIns)) return { form: null, result: field };
    return { form: { ...form, layout: { ...form.layout, builtIns } }, result: field };
  });
}
