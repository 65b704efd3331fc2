import { httpStatusOf } from '../../http/error-statuses.js';
import { AppError, type FieldError } from '../../domain/errors.js';
import { html, type SafeHtml } from '../html.js';

/** The hidden CSRF field every POST form carries. */
export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

/**
 * A one-button POST form (Regenerate, Delete, Deactivate…). With `confirm`, the script asks first; without the
 * script the button posts straight away.
 */
export function actionButton(input: {
  action: string;
  csrf: string;
  label: string;
  confirm?: string;
  kind?: 'primary' | 'secondary' | 'danger';
  fields?: Record<string, string>;
}): SafeHtml {
  const kind = input.kind ?? 'secondary';
  return html`<form class="inline" method="post" action="${input.action}"${
    input.confirm ? html` data-confirm="${input.confirm}"` : ''
  }>${csrfField(input.csrf)}${Object.entries(input.fields ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit"${kind === 'primary' ? '' : html` class="${kind}"`}>${input.label}</button></form>`;
}

/** Field problems of a refused form, by field name, from the same AppError the API would turn into problem+json. */
export type FormErrors = Record<string, string>;

export function formErrorsOf(error: AppError, fallbackField: string): FormErrors {
  const errors: FormErrors = {};
  for (const fieldError of error.fieldErrors ?? ([] as FieldError[])) errors[fieldError.field] ??= fieldError.message;
  if (Object.keys(errors).length === 0) errors[fallbackField] = error.detail;
  return errors;
}

/** A labelled input with its error tied to it (aria-describedby), as the hosted form does. */
export function field(input: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  errors?: FormErrors;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  textarea?: boolean;
}): SafeHtml {
  const id = `f-${input.name}`;
  const error = input.errors?.[input.name];
  const describedBy = [input.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = html` id="${id}" name="${input.name}"${
    input.autocomplete ? html` autocomplete="${input.autocomplete}"` : ''
  }${input.required ? html` required` : ''}${input.maxlength ? html` maxlength="${input.maxlength}"` : ''}${
    error ? html` aria-invalid="true"` : ''
  }${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  return html`<div class="field">
<label for="${id}">${input.label}</label>
${
  input.textarea
    ? html`<textarea${common}>${input.value ?? ''}</textarea>`
    : html`<input type="${input.type ?? 'text'}"${common} value="${input.value ?? ''}">`
}
${input.hint ? html`<p class="hint" id="${id}-hint">${input.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

export function isFormError(error: unknown): error is AppError {
  return (
    error instanceof AppError && httpStatusOf(error) < 500 && httpStatusOf(error) !== 404 && httpStatusOf(error) !== 403
  );
}

/** A labelled <select> with its hint and the field's error beside it, as every form field here. */
export function selectField(
  name: string,
  label: string,
  options: Array<[string, string]>,
  selected: string,
  errors: FormErrors,
  hint?: string,
): SafeHtml {
  const id = `f-${name}`;
  const error = errors[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${label}</label>
<select id="${id}" name="${name}"${error ? html` aria-invalid="true"` : ''}${
    describedBy ? html` aria-describedby="${describedBy}"` : ''
  }>${options.map(
    ([value, text]) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${text}</option>`,
  )}</select>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}
