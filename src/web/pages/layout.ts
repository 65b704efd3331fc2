import { assetHref } from '../assets/index.js';
import { html, type SafeHtml } from '../html.js';

/**
 * The shell of every hosted-form page: our stylesheet and script only, plus the bot-check provider's loader
 * when the source has one. Asset URLs are relative to /f/{token}.
 */
export function layout(input: { title: string; body: SafeHtml; script?: boolean; botCheckScript?: string | null }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title}</title>
<link rel="stylesheet" href="${assetHref('form.css')}">
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
