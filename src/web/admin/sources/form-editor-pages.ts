import { DEFAULT_ACCENT, MIN_CONTRAST, normalizeHex } from '../../../domain/forms/accent-colour.js';
import { FORM_FIELD_KIND_LABELS, FORM_FIELD_KINDS, FORM_LIMITS, type FormFieldDefinition } from '../../../domain/forms/form-definition.js';
import type { SourceForm } from '../../../domain/forms/source-form.js';
import type { SourceListItem } from '../../../domain/sources/list-sources.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

export interface FormEditorInput {
  source: SourceListItem;
  form: SourceForm;
  fieldErrors?: FormErrors;
  fieldValues?: Record<string, string>;
  accentErrors?: FormErrors;
  accentValue?: string;
  /** A field whose edit was refused: shown open, with the values as typed and the problems. */
  editing?: { fieldId: string; errors: FormErrors; values: Record<string, string> };
}

/** One of the edit form's controls; ids carry the field's id, so every row's form has its own. */
function editControl(f: FormFieldDefinition, name: string, label: string, value: string, errors: FormErrors, multiline: boolean): SafeHtml {
  const id = `edit-${f.id}-${name}`;
  const error = errors[name];
  const attrs = html`id="${id}" name="${name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}`;
  return html`<div class="field">
<label for="${id}">${label}</label>
${multiline ? html`<textarea ${attrs}>${value}</textarea>` : html`<input type="text" ${attrs} value="${value}">`}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

/** A field's own edit form, folded under its row: everything but its kind (answers keep their meaning). */
function editForm(call: WorkspaceCall, base: string, f: FormFieldDefinition, editing: FormEditorInput['editing']): SafeHtml {
  const mine = editing?.fieldId === f.id ? editing : undefined;
  const errors = mine?.errors ?? {};
  const value = (name: string, current: string) => mine?.values[name] ?? current;
  const listed = f.kind === 'choice' || f.kind === 'checkboxes';
  const required = mine ? mine.values.required === '1' : f.required;
  return html`<details class="edit-field"${mine ? html` open` : ''}><summary>Edit</summary>
<form method="post" action="${base}/fields/${f.id}" novalidate>
${csrfField(call.csrf)}
${editControl(f, 'label', 'Label', value('label', f.label), errors, false)}
${editControl(f, 'help', 'Help text (optional)', value('help', f.help ?? ''), errors, false)}
${listed ? editControl(f, 'options', 'Options, one per line', value('options', f.options.join('\n')), errors, true) : ''}
${f.kind === 'consent' ? editControl(f, 'consentText', 'Consent text', value('consentText', f.consentText ?? ''), errors, true) : ''}
<div class="field check"><input type="checkbox" id="edit-${f.id}-required" name="required" value="1"${required ? html` checked` : ''}><label for="edit-${f.id}-required">Required</label></div>
<button type="submit">Save field</button>
</form>
</details>`;
}

function fieldSummary(f: FormFieldDefinition): string {
  const parts = [FORM_FIELD_KIND_LABELS[f.kind].split(' (')[0]!, f.required ? 'required' : 'optional'];
  if (f.options.length) parts.push(f.options.join(' · '));
  return parts.join(' — ');
}

function fieldRow(call: WorkspaceCall, base: string, f: FormFieldDefinition, i: number, count: number, editing: FormEditorInput['editing']): SafeHtml {
  const action = (what: string) => `${base}/fields/${f.id}/${what}`;
  return html`<li class="form-field-row" id="field-${f.id}">
<div class="form-field-text"><strong>${f.label}</strong><span class="muted small">${fieldSummary(f)}</span>${f.help ? html`<span class="small">${f.help}</span>` : ''}${f.consentText ? html`<span class="small">“${f.consentText}”</span>` : ''}</div>
<div class="actions">${i > 0 ? actionButton({ action: action('move'), csrf: call.csrf, label: 'Move up', fields: { direction: 'up' } }) : ''}${i < count - 1 ? actionButton({ action: action('move'), csrf: call.csrf, label: 'Move down', fields: { direction: 'down' } }) : ''}${actionButton({ action: action('remove'), csrf: call.csrf, label: 'Remove', kind: 'danger', confirm: `Remove “${f.label}” from the form? Answers already received stay on their leads.` })}</div>
${editForm(call, base, f, editing)}
</li>`;
}

/** A source's form (docs/admin-app.md, "A source's form"): its own fields in order, a new field, the accent colour. */
export function formEditorPage(call: WorkspaceCall, input: FormEditorInput): SafeHtml {
  const { source, form } = input;
  const sourceBase = workspacePath(call.workspace.workspaceId, `sources/${source.id}`);
  const base = `${sourceBase}/form`;
  const errors = input.fieldErrors ?? {};
  const values = input.fieldValues ?? {};
  const kind = values.kind ?? 'short_text';
  const full = form.fields.length >= FORM_LIMITS.fields;
  return html`<p class="small"><a href="${sourceBase}">← ${source.name}</a></p>
<div class="page-head"><div><h1>Form fields</h1><p class="muted">The hosted form of ${source.name}: name, phone, email, address and message are always there; add your own below.</p></div>
<div class="actions"><a class="button secondary" href="${source.formUrl}" target="_blank" rel="noopener">Open the form</a></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="fields-heading">
<h2 id="fields-heading">Your fields</h2>
${form.fields.length === 0
  ? html`<p class="muted" id="no-fields">No fields of your own yet.</p>`
  : html`<ol class="plain form-fields" id="form-fields">${form.fields.map((f, i) => fieldRow(call, base, f, i, form.fields.length, input.editing))}</ol>`}
<p class="muted small">Answers are stored with the lead under the field’s label, and are columns of the CSV export. Posts to the intake URL from your own forms do not need these fields.</p>
</section>
<div class="grid-2">
<section class="card" aria-labelledby="add-heading">
<h2 id="add-heading">Add a field</h2>
${full ? html`<p class="notice warn">A form has at most ${FORM_LIMITS.fields} fields of its own. Remove one to add another.</p>` : ''}
<form method="post" action="${base}/fields" novalidate>
${csrfField(call.csrf)}
<div class="field">
<label for="f-kind">Kind</label>
<select id="f-kind" name="kind"${errors.kind ? html` aria-invalid="true" aria-describedby="f-kind-error"` : ''}>${FORM_FIELD_KINDS.map((k) => html`<option value="${k}"${k === kind ? html` selected` : ''}>${FORM_FIELD_KIND_LABELS[k]}</option>`)}</select>
${errors.kind ? html`<p class="field-error" id="f-kind-error">${errors.kind}</p>` : ''}
</div>
${field({ name: 'label', label: 'Label', value: values.label ?? '', errors, maxlength: FORM_LIMITS.label, hint: 'What the visitor reads, e.g. “Type of work”. Answers are stored under it.' })}
${field({ name: 'help', label: 'Help text (optional)', value: values.help ?? '', errors, maxlength: FORM_LIMITS.help, hint: 'Shown under the label, e.g. “Roughly, if you are not sure”.' })}
${field({ name: 'options', label: 'Options (choice and checkboxes)', value: values.options ?? '', errors, textarea: true, hint: `One per line, 2 to ${FORM_LIMITS.options}.` })}
${field({ name: 'consentText', label: 'Consent text (consent only)', value: values.consentText ?? '', errors, textarea: true, maxlength: FORM_LIMITS.consentText, hint: 'Shown next to the box, e.g. “I agree that you may contact me about my request.”' })}
<div class="field check"><input type="checkbox" id="f-required" name="required" value="1"${values.required === '1' ? html` checked` : ''}><label for="f-required">Required</label></div>
<button type="submit"${full ? html` disabled` : ''}>Add field</button>
</form>
</section>
<section class="card" aria-labelledby="look-heading">
<h2 id="look-heading">Colour</h2>
<p class="muted small">The Send button and focus rings. White text must stay readable on it: colours under a ${MIN_CONTRAST}:1 contrast with white (WCAG AA) are refused. The default is ${DEFAULT_ACCENT}.</p>
<form method="post" action="${base}/look" novalidate>
${csrfField(call.csrf)}
${field({ name: 'accent', label: 'Accent colour', type: 'color', value: normalizeHex(input.accentValue ?? '') ?? form.accent ?? DEFAULT_ACCENT, errors: input.accentErrors ?? {}, hint: 'Pick a colour; it is checked against white when you save.' })}
<p class="accent-now small">Now: <code>${form.accent ?? `${DEFAULT_ACCENT} (default)`}</code></p>
<button type="submit">Save colour</button>
</form>
${form.accent ? html`<form method="post" action="${base}/look" class="inline">${csrfField(call.csrf)}<input type="hidden" name="accent" value=""><button type="submit" class="secondary">Use the default colour</button></form>` : ''}
</section>
</div>`;
}
