import type { BotCheckProvider } from '../../config.js';
import { assetHref } from '../assets/index.js';
import { BOT_CHECK_WIDGETS } from '../bot-check-widget.js';
import { html, type SafeHtml } from '../html.js';

/**
 * The shell of every hosted-form page: our stylesheet and script only, plus the bot-check provider's loader
 * when the source has one. Asset URLs are relative to /f/{token}.
 */
export function layout(input: { title: string; body: SafeHtml; script?: boolean; botCheck?: BotCheckProvider | null }): string {
  const provider = input.botCheck ? BOT_CHECK_WIDGETS[input.botCheck] : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title}</title>
<link rel="stylesheet" href="${assetHref('form.css')}">
${input.script ? html`<script src="${assetHref('form.js')}" defer></script>` : ''}
${provider ? html`<script src="${provider.scriptUrl}" async defer></script>` : ''}
</head>
<body>
<main>
${input.body}
</main>
</body>
</html>
`.value;
}
