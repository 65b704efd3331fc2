import crypto from 'node:crypto';
import { FORM_CSS } from './form-css.js';
import { formClient, type FormClientConfig } from './form-client.js';
import { BOT_CHECK_RESPONSE_FIELDS, RECAPTCHA_V3 } from './bot-check-widget.js';
import { CONTACT_FIELDS, CONTACT_HINT_ID, FORM_FIELDS, FORM_KEY_FIELD } from './form-fields.js';
import { FIELD_MESSAGES, FORM_FAILED, FORM_MESSAGES, FORM_PROBLEMS } from './messages.js';
import { PAGE_URL_FIELD, PAGE_URL_MAX } from '../../domain/lead-fields.js';
import { EMBED_MESSAGES } from './embed-snippet.js';

export interface StaticAsset {
  body: string;
  contentType: string;
  /** Content hash, put in the page's URL: a changed file gets a new URL, so it can be cached for a year. */
  version: string;
}

function asset(body: string, contentType: string): StaticAsset {
  return { body, contentType, version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

const CLIENT_CONFIG: FormClientConfig = {
  fields: FORM_FIELDS.map((f) => f.name),
  contact: [...CONTACT_FIELDS],
  dropFields: [...BOT_CHECK_RESPONSE_FIELDS, FORM_KEY_FIELD],
  hintId: CONTACT_HINT_ID,
  messages: FORM_MESSAGES,
  fieldMessages: FIELD_MESSAGES,
  problems: FORM_PROBLEMS,
  failed: FORM_FAILED,
  recaptchaV3: RECAPTCHA_V3,
  tokenWaitMs: 10000,
  timeoutMs: 15000,
  retryDelaysMs: [1000, 2000, 4000, 8000, 15000, 30000],
  pageUrlField: PAGE_URL_FIELD,
  pageUrlMax: PAGE_URL_MAX,
  pendingPrefix: 'leadscan:pending:',
  embed: EMBED_MESSAGES,
};

/**
 * The form's script: the type-checked function of form-client.ts, compiled, called with its configuration (the
 * messages of messages.ts among it). esbuild with keepNames (tsx) wraps inner functions in __name(); the no-op
 * lets that source run as well.
 */
const FORM_JS =
  `"use strict";\nvar __name = function (f) { return f; };\n(${formClient.toString()})(document, ` +
  `window, ${JSON.stringify(CLIENT_CONFIG)});\n`;

/** Served under /f/assets/ from our own origin; the CSP allows no other script or style source. */
export const FORM_ASSETS: Record<string, StaticAsset> = {
  'form.css': asset(FORM_CSS, 'text/css; charset=utf-8'),
  'form.js': asset(FORM_JS, 'text/javascript; charset=utf-8'),
};

/** The URL of an asset relative to a page at /f/{token}, so the form also works behind a path prefix. */
export function assetHref(name: keyof typeof FORM_ASSETS & string): string {
  return `assets/${name}?v=${FORM_ASSETS[name]?.version ?? ''}`;
}

/**
 * A source's accent colour as a stylesheet of its own (the CSP allows no inline style): `accent-1f5fd1.css`. The
 * name is the content, so it never changes and is cached for a year.
 */
const ACCENT_ASSET = /^accent-([0-9a-f]{6})\.css$/;

export function accentHref(hex: string): string {
  return `assets/accent-${hex.replace('#', '').toLowerCase()}.css?v=1`;
}

export function accentAsset(name: string): StaticAsset | undefined {
  const match = ACCENT_ASSET.exec(name);
  if (!match) return undefined;
  return { body: `:root { --accent: #${match[1]}; }\n`, contentType: 'text/css; charset=utf-8', version: '1' };
}
