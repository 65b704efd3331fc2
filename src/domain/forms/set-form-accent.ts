import type { VerbArgs } from '../context.js';
import { checkAccent } from './accent-colour.js';
import { changeSourceForm } from './source-form.js';

/** Sets the hosted form's accent colour (contrast checked, docs/admin-app.md); "" goes back to the default. */
export async function setFormAccent({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; accent: string }>): Promise<string | null> {
  const accent = checkAccent(input.accent);
  // The colour it already has changes nothing, and nothing is recorded.
  return changeSourceForm(ctx, input.sourceId, 'source.accent_changed', (form) => ({
    form: form.accent === accent ? null : { ...form, accent },
    result: accent,
  }));
}
