import { assetHref, accentHref } from './assets.js';
import { html, type SafeHtml } from '../html.js';

/**
 * The shell of every hosted-form page: our stylesheet and script only, plus the bot-check provider's loader
 * when the source has one. Asset URLs are relative to /f/{token}. `embedded` (the page is loaded in a frame, from
 * the request's Sec-Fetch-Dest) drops the page's own background and card, so the form sits on the owner's page;
 * the script sets the same class when a browser does not say.
 */
export function layout(input: {
  title: string;
  body: SafeHtml;
  script?: boolean;
  botCheckScript?: string | null;
  accent?: string | null;
  embedded?: boolean;
}): string {
  return html`<!doctype html>
<html lang="en"${input.embedded ? html` class="embedded"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title}</title>
<link rel="stylesheet" href="${assetHref('form.css')}">
${input.accent ? html`<link rel="stylesheet" href="${accentHref(input.accent)}">` : ''}
${input.script ? html`<script src="${assetHref('form.js')}" defer></script>` : ''}
${input.botCheckScript ? html`<script src="${input.botCheckScript}" async defer></script>` : ''}
</head>
<body>
<main>
${input.body}
</main>
</body>
</html>
`.value;
}
