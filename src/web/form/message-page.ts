import { html } from '../html.js';
import { layout } from './layout.js';
import { FORM_FAILED, formProblem } from './messages.js';

/** A page that only says something: the form is closed, the link is broken, or something failed. */
export function messagePage(input: { heading: string; text: string; requestId?: string }): string {
  return layout({
    title: input.heading,
    body: html`<h1>${input.heading}</h1>
<p>${input.text}</p>
${input.requestId ? html`<p class="hint">Reference: <code>${input.requestId}</code></p>` : ''}`,
  });
}

/**
 * The page of a refusal that has no form to show again (a closed form, a broken link, a post that could not be read).
 */
export function problemPage(code: string, requestId?: string): string {
  const problem = formProblem(code);
  // A reference only where it helps someone help: a failure on our side.
  return messagePage({ ...problem, ...(problem === FORM_FAILED && requestId ? { requestId } : {}) });
}
