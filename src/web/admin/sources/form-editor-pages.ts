import { contrastWithWhite, DEFAULT_ACCENT, MIN_CONTRAST, normalizeHex } from '../../../domain/forms/accent-colour.js';
import {
  builtInLabel,
  DEFAULT_BUILT_IN_LABELS,
  formItems,
  type BuiltInField,
} from '../../../domain/forms/form-layout.js';
import {
  FORM_FIELD_KIND_LABELS,
  FORM_FIELD_KINDS,
  FORM_LIMITS,
  type FormFieldDefinition,
} from '../../../domain/forms/form-definition.js';
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
  /**
   * A field whose edit was refused (by id, or a built-in one by name): shown open, with the values as typed and the
   * problems.
   */
  editing?: { fieldId: string; errors: FormErrors; values: Record<string, string> };
}

/** One of the edit form's controls; ids carry the field's id, so every row's form has its own. */
function editControl(
  f: FormFieldDefinition,
  name: string,
  label: string,
  value: string,
  errors: FormErrors,
  multiline: boolean,
): SafeHtml {
  const id = `edit-${f.id}-${name}`;
  const error = errors[name];
  const attrs = html`id="${id}" name="${name}"${
    error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }`;
  return html`<div class="field">
<label for="${id}">${label}</label>
${multiline ? html`<textarea ${attrs}>${value}</textarea>` : html`<input type="text" ${attrs} value="${value}">`}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

/** A field's own edit form, folded under its row: everything but its kind (answers keep their meaning). */
function editForm(
  call: WorkspaceCall,
  base: string,
  f: FormFieldDefinition,
  editing: FormEditorInput['editing'],
): SafeHtml {
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
${
  listed ? editControl(f, 'options', 'Options, one per line', value('options', f.options.join('\n')), errors, true) : ''
}
${
  f.kind === 'consent'
    ? editControl(f, 'consentText', 'Consent text', value('consentText', f.consentText ?? ''), errors, true)
    : ''
}
<div class="field check"><input type="checkbox" id="edit-${f.id}-required" name="required" value="1"${
    required ? html` checked` : ''
  }><label for="edit-${f.id}-required">Required</label></div>
<button type="submit">Save field</button>
</form>
</details>`;
}

function fieldSummary(f: FormFieldDefinition): string {
  const parts = [FORM_FIELD_KIND_LABELS[f.kind].split(' (')[0]!, f.required ? 'required' : 'optional'];
  if (f.options.length) parts.push(f.options.join(' · '));
  return parts.join(' — ');
}

/** Move up and Move down: one order for the built-in fields and the own ones (a built-in field by its name). */
function moveButtons(call: WorkspaceCall, base: string, key: string, i: number, count: number): SafeHtml {
  const action = `${base}/fields/${key}/move`;
  return html`${i > 0 ? actionButton({ action, csrf: call.csrf, label: 'Move up', fields: { direction: 'up' } }) : ''}${
    i < count - 1 ? actionButton({ action, csrf: call.csrf, label: 'Move down', fields: { direction: 'down' } }) : ''
  }`;
}

function fieldRow(
  call: WorkspaceCall,
  base: string,
  f: FormFieldDefinition,
  i: number,
  count: number,
  editing: FormEditorInput['editing'],
): SafeHtml {
  const action = (what: string) => `${base}/fields/${f.id}/${what}`;
  return html`<li class="form-field-row" id="field-${f.id}">
<div class="form-field-text"><strong>${f.label}</strong><span class="muted small">${fieldSummary(f)}</span>${
    f.help ? html`<span class="small">${f.help}</span>` : ''
  }${f.consentText ? html`<span class="small">“${f.consentText}”</span>` : ''}</div>
<div class="actions">${moveButtons(call, base, f.id, i, count)}${actionButton({
    action: action('remove'),
    csrf: call.csrf,
    label: 'Remove',
    kind: 'danger',
    confirm: `Remove “${f.label}” from the form? Answers already received stay on their leads.`,
  })}</div>
${editForm(call, base, f, editing)}
</li>`;
}

function builtInSummary(b: BuiltInField): string {
  const parts = [
    b.label === null ? 'Built-in' : `Built-in (${DEFAULT_BUILT_IN_LABELS[b.name]})`,
    b.shown ? 'shown' : 'hidden',
  ];
  if (b.shown) parts.push(b.required ? 'required' : 'optional');
  return parts.join(' — ');
}

/** A checkbox of a built-in field's form, its error (if any) tied to it. */
function builtInCheck(id: string, name: string, label: string, checked: boolean, error: string | undefined): SafeHtml {
  return html`<div class="field check"><input type="checkbox" id="${id}"
    name="${name}" value="1"${checked ? html` checked` : ''}${
      error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
    }><label for="${id}">${label}</label></div>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/** A built-in field's form, folded under its row: its label, shown or hidden, required or not. */
function builtInForm(
  call: WorkspaceCall,
  base: string,
  b: BuiltInField,
  editing: FormEditorInput['editing'],
): SafeHtml {
  const mine = editing?.fieldId === b.name ? editing : undefined;
  const errors = mine?.errors ?? {};
  const id = `edit-${b.name}`;
  const shown = mine ? mine.values.shown === '1' : b.shown;
  const required = mine ? mine.values.required === '1' : b.required;
  const label = mine?.values.label ?? builtInLabel(b);
  return html`<details class="edit-field"${mine ? html` open` : ''}><summary>Edit</summary>
<form method="post" action="${base}/built-in/${b.name}" novalidate>
${csrfField(call.csrf)}
<div class="field">
<label for="${id}-label">Label</label>
<input type="text" id="${id}-label" name="label" maxlength="${FORM_LIMITS.label}" value="${label}"${
    errors.label ? html` aria-invalid="true"` : ''
  } aria-describedby="${id}-label-hint${errors.label ? ` ${id}-label-error` : ''}">
<p class="hint" id="${id}-label-hint">Empty for “${DEFAULT_BUILT_IN_LABELS[b.name]}”.</p>
${errors.label ? html`<p class="field-error" id="${id}-label-error">${errors.label}</p>` : ''}
</div>
${builtInCheck(`${id}-shown`, 'shown', 'Shown on the form', shown, errors.shown)}
${builtInCheck(`${id}-required`, 'required', 'Required', required, errors.required)}
<button type="submit">Save field</button>
</form>
</details>`;
}

function builtInRow(
  call: WorkspaceCall,
  base: string,
  b: BuiltInField,
  i: number,
  count: number,
  editing: FormEditorInput['editing'],
): SafeHtml {
  return html`<li class="form-field-row${
    b.shown ? '' : ' hidden-field'
  }" id="field-${b.name}" data-built-in="${b.name}">
<div class="form-field-text"><strong>${builtInLabel(b)}</strong><span class="muted small">${builtInSummary(b)}</span>
</div>
<div class="actions">${moveButtons(call, base, b.name, i, count)}</div>
${builtInForm(call, base, b, editing)}
</li>`;
}

/**
 * The live contrast hint beside the colour input: the server writes it for the colour shown, and the admin script
 * rewrites it as the owner picks another, with the same function (accent-colour.ts) and these words.
 */
function contrastHint(hex: string): SafeHtml {
  const words = {
    pass: `White text on {colour}: {ratio}:1 — readable (WCAG AA needs ${MIN_CONTRAST}:1).`,
    fail: `White text on {colour}: {ratio}:1 — too light; WCAG AA needs ${MIN_CONTRAST}:1. Choose a darker colour.`,
  };
  const ratio = contrastWithWhite(hex);
  const ok = ratio >= MIN_CONTRAST;
  const text = (ok ? words.pass : words.fail).replace('{colour}', hex).replace('{ratio}', ratio.toFixed(2));
  return html`<p id="accent-contrast" class="small contrast-hint ${ok ? 'ok' : 'bad'}" aria-live="polite"
    data-contrast-of="#f-accent" data-min="${MIN_CONTRAST}" data-pass="${words.pass}"
      data-fail="${words.fail}">${text}</p>`;
}

/**
 * A source's form (docs/admin-app.md, "A source's form"): every field in the visitors' order (the built-in ones
 * shaped in place, the own ones edited in place), a new field, the accent colour.
 */
export function formEditorPage(call: WorkspaceCall, input: FormEditorInput): SafeHtml {
  const { source, form } = input;
  const sourceBase = workspacePath(call.workspace.workspaceId, `sources/${source.id}`);
  const base = `${sourceBase}/form`;
  const errors = input.fieldErrors ?? {};
  const values = input.fieldValues ?? {};
  const kind = values.kind ?? 'short_text';
  const full = form.fields.length >= FORM_LIMITS.fields;
  const items = formItems(form.layout, form.fields);
  const accent = normalizeHex(input.accentValue ?? '') ?? form.accent ?? DEFAULT_ACCENT;
  return html`<p class="small"><a href="${sourceBase}">← ${source.name}</a></p>
<div class="page-head"><div><h1>Form fields</h1>
<p class="muted">The hosted form of ${source.name}, in the order visitors see it. Relabel, hide, require or move
the built-in fields; add your own below.</p></div>
<div class="actions"><a class="button secondary" href="${source.formUrl}" target="_blank"
  rel="noopener">Open the form</a></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="fields-heading">
<h2 id="fields-heading">Fields, in order</h2>
<ol class="plain form-fields" id="form-fields">${items.map((item, i) =>
    item.kind === 'built_in'
      ? builtInRow(call, base, item.field, i, items.length, input.editing)
      : fieldRow(call, base, item.field, i, items.length, input.editing),
  )}</ol>
${form.fields.length === 0 ? html`<p class="muted" id="no-fields">No fields of your own yet.</p>` : ''}
<p class="muted small">At least one of name, phone and email stays on the form. Answers to your own fields are
stored with the lead under the field’s label, and are columns of the CSV export. Posts to the intake URL
from your own forms are not held to any of this: they need none of these fields and may send hidden ones.</p>
</section>
<div class="grid-2">
<section class="card" aria-labelledby="add-heading">
<h2 id="add-heading">Add a field</h2>
${
  full
    ? html`<p class="notice warn">A form has at most ${FORM_LIMITS.fields} fields of its own. Remove one to add
    another.</p>`
    : ''
}
<form method="post" action="${base}/fields" novalidate>
${csrfField(call.csrf)}
<div class="field">
<label for="f-kind">Kind</label>
<select id="f-kind" name="kind"${
    errors.kind ? html` aria-invalid="true" aria-describedby="f-kind-error"` : ''
  }>${FORM_FIELD_KINDS.map(
    (k) => html`<option value="${k}"${k === kind ? html` selected` : ''}>${FORM_FIELD_KIND_LABELS[k]}</option>`,
  )}</select>
${errors.kind ? html`<p class="field-error" id="f-kind-error">${errors.kind}</p>` : ''}
</div>
${field({
  name: 'label',
  label: 'Label',
  value: values.label ?? '',
  errors,
  maxlength: FORM_LIMITS.label,
  hint: 'What the visitor reads, e.g. “Type of work”. Answers are stored under it.',
})}
${field({
  name: 'help',
  label: 'Help text (optional)',
  value: values.help ?? '',
  errors,
  maxlength: FORM_LIMITS.help,
  hint: 'Shown under the label, e.g. “Roughly, if you are not sure”.',
})}
${field({
  name: 'options',
  label: 'Options (choice and checkboxes)',
  value: values.options ?? '',
  errors,
  textarea: true,
  hint: `One per line, 2 to ${FORM_LIMITS.options}.`,
})}
${field({
  name: 'consentText',
  label: 'Consent text (consent only)',
  value: values.consentText ?? '',
  errors,
  textarea: true,
  maxlength: FORM_LIMITS.consentText,
  hint: 'Shown next to the box, e.g. “I agree that you may contact me about my request.”',
})}
<div class="field check"><input type="checkbox" id="f-required" name="required" value="1"${
    values.required === '1' ? html` checked` : ''
  }><label for="f-required">Required</label></div>
<button type="submit"${full ? html` disabled` : ''}>Add field</button>
</form>
</section>
<section class="card" aria-labelledby="look-heading">
<h2 id="look-heading">Colour</h2>
<p class="muted small">The Send button and focus rings. White text must stay readable on it: colours
under a ${MIN_CONTRAST}:1 contrast with white (WCAG AA) are refused. The default is ${DEFAULT_ACCENT}.</p>
<form method="post" action="${base}/look" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'accent',
  label: 'Accent colour',
  type: 'color',
  value: accent,
  errors: input.accentErrors ?? {},
  hint: 'Pick a colour; it is checked against white when you save.',
})}
${contrastHint(accent)}
<p class="accent-now small">Now: <code>${form.accent ?? `${DEFAULT_ACCENT} (default)`}</code></p>
<button type="submit">Save colour</button>
</form>
${
  form.accent
    ? html`<form method="post" action="${base}/look"
      class="inline">${csrfField(call.csrf)}<input type="hidden" name="accent"
        value=""><button type="submit" class="secondary">Use the default colour</button></form>`
    : ''
}
</section>
</div>`;
}
