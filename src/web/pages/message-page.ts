import { html } from '../html.js';
import { layout } from './layout.js';

/** A page that only says something: the form is closed, the link is broken, or something failed. */
export function messagePage(input: { heading: string; text: string; requestId?: string }): string {
  return layout({
    title: input.heading,
    body: html`<h1>${input.heading}</h1>
<p>${input.text}</p>
${input.requestId ? html`<p class="hint">Reference: <code>${input.requestId}</code></p>` : ''}`,
  });
}

export function closedPage(): string {
  return messagePage({
    heading: 'This form is closed',
    text: 'This form no longer takes messages. If you were trying to reach someone, please contact them another way.',
  });
}

export function malformedLinkPage(): string {
  return messagePage({
    heading: 'This form link is not valid',
    text: 'The link seems to be incomplete or mistyped. Please check that you copied the whole address.',
  });
}
