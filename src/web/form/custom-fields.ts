import { answerName, FORM_LIMITS, type FormFieldDefinition } from '../../domain/forms/form-definition.js';
import { fieldErrorId, fieldId } from './form-fields.js';
import { html, type SafeHtml } from '../html.js';

/** What the re-rendered form puts back into one of the source's own fields. */
export type CustomValue = string | string[] | undefined;

const helpId = (name: string) => `f-${name}-help`;

function labelText(field: FormFieldDefinition): SafeHtml {
  return html`${field.label}${field.required ? '' : html` <span class="optional">(optional)</span>`}`;
}

/**
 * One of the source's own fields on the hosted form (docs/admin-app.md, "A source's form"): a labelled control, or
 * a fieldset with a legend for a list, its help text and its error both tied to it by aria-describedby.
 */
export function customFieldMarkup(field: FormFieldDefinition, value: CustomValue, error: string | undefined): SafeHtml {
  const name = answerName(field);
  const id = fieldId(name);
  const errorId = fieldErrorId(name);
  const describedBy = field.help ? `${helpId(name)} ${errorId}` : errorId;
  const invalid = error ? html` aria-invalid="true"` : '';
  const required = field.required ? html` aria-required="true"` : '';
  const help = field.help ? html`<p class="help" id="${helpId(name)}">${field.help}</p>` : '';
  const errorLine = html`<p class="field-error" id="${errorId}">${error ?? ''}</p>`;
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const text = values[0] ?? '';

  if (field.kind === 'short_text' || field.kind === 'long_text' || field.kind === 'date') {
    const common = html`id="${id}" name="${name}" aria-describedby="${describedBy}"${required}${invalid}`;
    const control =
      field.kind === 'long_text'
        ? html`<textarea ${common} rows="4" maxlength="${FORM_LIMITS.longAnswer}">\n${text}</textarea>`
        : field.kind === 'date'
          ? html`<input ${common} type="date" value="${text}">`
          : html`<input ${common} type="text" maxlength="${FORM_LIMITS.shortAnswer}" value="${text}">`;
    return html`<div class="field" data-custom="${name}">
<label for="${id}">${labelText(field)}</label>
${help}${control}
${errorLine}
</div>
`;
  }

  // A list or a box to tick: a fieldset named by its legend; the error and help describe the group.
  const type = field.kind === 'choice' ? 'radio' : 'checkbox';
  const choices =
    field.kind === 'consent'
      ? [{ value: 'yes', label: field.consentText ?? '' }]
      : field.options.map((option) => ({ value: option, label: option }));
  const boxes = choices.map((choice, i) => {
    const boxId = `${id}-${i}`;
    const checked = values.includes(choice.value) ? html` checked` : '';
    return html`<div class="choice"><input type="${type}" id="${boxId}" name="${name}"
      value="${choice.value}"${checked}${i === 0 ? required : ''}><label for="${boxId}">${choice.label}</label></div>
`;
  });
  return html`<fieldset class="field group" id="${id}"
    data-custom="${name}" aria-describedby="${describedBy}"${invalid}>
<legend>${labelText(field)}</legend>
${help}${boxes}${errorLine}
</fieldset>
`;
}
