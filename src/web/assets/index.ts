import crypto from 'node:crypto';
import { FORM_CSS } from './form-css.js';
import { FORM_JS } from './form-js.js';

export interface StaticAsset {
  body: string;
  contentType: string;
  /** Content hash, put in the page's URL: a changed file gets a new URL, so it can be cached for a year. */
  version: string;
}

function asset(body: string, contentType: string): StaticAsset {
  return { body, contentType, version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

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
