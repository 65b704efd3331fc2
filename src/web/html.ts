/**
 * The escape-by-default template of every page. It lives in domain/html.ts because the emails are rendered there
 * too (domain/notifications/render-email.ts), and the domain imports nothing from web/.
 */
export { escapeHtml, html, SafeHtml, type HtmlValue } from '../domain/html.js';
