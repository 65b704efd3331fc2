import crypto from 'node:crypto';
import { ADMIN_CSS } from './admin-css.js';
import { adminClient, type AdminShared } from './admin-client.js';
import { contrastWithWhite } from '../../../domain/forms/accent-colour.js';
import { FAVICON_SVG } from './favicon.js';
import { LEADS_CSS } from '../leads/leads-css.js';
import { LEAD_WORK_CSS } from '../leads/lead-work-css.js';
import { QUOTES_CSS } from '../quotes/quotes-css.js';
import { REPORT_CSS } from '../quotes/report-css.js';
import { INVOICES_CSS } from '../invoices/invoices-css.js';

export interface AdminAsset {
  body: string;
  contentType: string;
  /** Content hash in the page's URL: a changed file gets a new URL, so it can be cached for a year. */
  version: string;
}

function asset(body: string, contentType: string): AdminAsset {
  return { body, contentType, version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

/**
 * What the script shares with the server, as the server's own functions' source (each self-contained): the contrast
 * rule of the form editor's colour (domain/forms/accent-colour.ts).
 */
const SHARED_FUNCTIONS: AdminShared = { contrastWithWhite };
const SHARED = `{ ${Object.entries(SHARED_FUNCTIONS)
  .map(([name, fn]) => `${name}: (${fn.toString()})`)
  .join(', ')} }`;

/**
 * Served under /admin/assets/ from our own origin (the CSP allows nothing else). The script is a type-checked
 * TypeScript function; its compiled source is served as an immediately invoked function.
 */
export const ADMIN_ASSETS: Record<string, AdminAsset> = {
  'admin.css': asset(
    `${ADMIN_CSS}${LEADS_CSS}${LEAD_WORK_CSS}${QUOTES_CSS}${REPORT_CSS}${INVOICES_CSS}.offscreen { position: ` +
      `absolute; left: -9999px; }\n`,
    'text/css; charset=utf-8',
  ),
  // esbuild with keepNames (tsx) wraps inner functions in __name(); the no-op lets that source run as well.
  'admin.js': asset(
    `"use strict";\nvar __name = function (f) { return f; };\n(${adminClient.toString()})(document, ` +
      `window, ${SHARED});\n`,
    'text/javascript; charset=utf-8',
  ),
  'favicon.svg': asset(FAVICON_SVG, 'image/svg+xml'),
};

export function adminAssetHref(name: 'admin.css' | 'admin.js' | 'favicon.svg'): string {
  return `/admin/assets/${name}?v=${ADMIN_ASSETS[name]?.version ?? ''}`;
}
