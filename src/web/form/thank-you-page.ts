import { html } from '../html.js';
import { FORM_MESSAGES } from './messages.js';
import { layout } from './layout.js';

/** The answer to a no-script submission that was accepted (a honeypot catch gets the very same page). */
export function thankYouPage(input: {
  sourceName: string;
  heading?: string | null;
  text?: string | null;
  accent?: string | null;
  embedded?: boolean;
}): string {
  const heading = input.heading ?? input.sourceName;
  return layout({
    title: `Thank you · ${heading}`,
    body: html`<h1>${heading}</h1>
<section class="thanks" id="thanks" aria-labelledby="thanks-heading">
<h2 id="thanks-heading">Thank you</h2>
<p>${input.text ?? FORM_MESSAGES.thanks}</p>
</section>`,
    accent: input.accent ?? null,
    embedded: input.embedded ?? false,
    // The script reports the page's height to an embedding page, so the frame shrinks to the thank-you.
    script: true,
  });
}
