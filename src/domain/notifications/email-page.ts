import { html, SafeHtml } from '../html.js';

/** One email as sent: the subject, a plain-text part, an HTML part, and where replies go when not to the sender. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

/**
 * How text wraps in every email: between words, and inside a word only when it is longer than the line (a long URL
 * or address), never mid-word otherwise (`word-break:normal`; `word-wrap` is the older clients' name).
 */
export const WRAP = 'overflow-wrap:break-word;word-wrap:break-word;word-break:normal';

/** The column's style: markup, as the font stack's quotes must reach the style attribute unescaped. */
const COLUMN_STYLE = new SafeHtml(
  "max-width:560px;margin:0 auto;padding:24px 16px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial," +
    `sans-serif;font-size:16px;line-height:1.5;color:#111827;${WRAP}`,
);

const BUTTON_STYLE =
  'display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;' +
  'font-weight:600';

/** The one button style of every email. */
export function button(label: string, url: string): SafeHtml {
  return html`<a href="${url}" style="${BUTTON_STYLE}">${label}</a>`;
}

const MESSAGE_STYLE =
  'margin:0 0 16px;padding:12px 14px;background:#ffffff;border-left:3px solid #1d4ed8;' +
  `white-space:pre-wrap;${WRAP}`;

/** The sender's own words typed beside Send (a quote's, an invoice's), set apart under the greeting. */
export function senderMessage(message: string | null): SafeHtml | '' {
  return message ? html`<p style="${MESSAGE_STYLE}" id="sender-message">${message}</p>` : '';
}

/** The business's block under a sent document's email, as a customer reads one under a letter. */
export interface BusinessDetails {
  address: string | null;
  phone: string | null;
  email: string | null;
}

/** Its lines: name, address, phone, email, the empty ones left out. */
export function businessLines(name: string, business: BusinessDetails | undefined): string[] {
  return [name, business?.address, business?.phone, business?.email].filter((part): part is string =>
    Boolean(part?.trim()),
  );
}

/** The block itself, for `page`'s footer. */
export function businessFooter(lines: string[]): SafeHtml {
  return html`<p style="margin:24px 0 0;font-size:14px;color:#374151;white-space:pre-wrap;${WRAP}"
    id="business">${lines.join('\n')}</p>`;
}

/**
 * The one page every email's HTML part is laid out in: a narrow column, inline styles only (mail apps drop
 * stylesheets), no remote images, every value escaped by `html`.
 */
export function page(
  title: string,
  body: SafeHtml,
  action: { label: string; url: string } | undefined,
  settingsUrl?: string,
  /** Under the button: who the email is from (a business's address and phone). */
  footer?: SafeHtml,
): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head>
<body style="margin:0;padding:0;background:#f6f7f9">
<div style="${COLUMN_STYLE}">
<h1 style="font-size:20px;margin:0 0 16px">${title}</h1>
${body}
${action ? html`<p style="margin:16px 0">${button(action.label, action.url)}</p>` : ''}
${footer ?? ''}
${
  settingsUrl
    ? html`<p style="margin:24px 0 0;font-size:13px;color:#6b7280">You get this email because of your choices
    on <a href="${settingsUrl}" style="color:#6b7280">Notifications</a> in Leadscan.</p>`
    : ''
}
</div></body></html>`.value;
}
