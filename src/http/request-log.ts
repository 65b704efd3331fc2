import type { FastifyRequest } from 'fastify';

/**
 * The pages whose link carries a one-time secret in its path: `/setup/{token}` (set a password),
 * `/confirm-email/{token}` (confirm a new email) and `/q/{token}` (a customer's quote link). The database keeps only
 * a hash of such a token, so the log must not keep the token either. Intake and hosted-form tokens are not secret:
 * they are printed in every page that embeds the form, and stay in the log to tell the sources apart.
 */
export const ONE_TIME_LINK_PREFIXES = ['setup', 'confirm-email', 'q', 'i'] as const;

/**
 * The one rule (docs/security.md, Logs): everything after a one-time link's prefix, whatever its case and however
 * many slashes a client sent, as the router may still find the page. It is judged on the path decoded and
 * normalised (`normalisedPath`), so `/%71/{token}` and `/q%2F{token}` are redacted like `/q/{token}`.
 */
const ONE_TIME_LINK = new RegExp(`^(/+(?:${ONE_TIME_LINK_PREFIXES.join('|')})(?:/+|$))[^?#]*`, 'i');

/** A path percent-decoded (where it decodes), with dot segments resolved: what a router may read it as. */
function normalisedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: each well-formed one is still decoded.
    decoded = path.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  }
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '.') continue;
    // Never above the root: `/../q/{token}` is `/q/{token}`.
    if (segment === '..') segments.length = Math.max(1, segments.length - 1);
    else segments.push(segment);
  }
  return segments.join('/');
}

/** A request's URL as it may be logged: a one-time link's token becomes `[redacted]`, a query string `?[redacted]`. */
export function urlForLog(url: string): string {
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  const link = ONE_TIME_LINK.exec(normalisedPath(raw));
  const path = link ? (link[1]!.endsWith('/') ? `${link[1]}[redacted]` : link[1]!) : raw;
  const query = url.indexOf('?');
  return query === -1 ? path : `${path}?[redacted]`;
}

/**
 * The request as logged: method, URL and id, with one-time tokens and the query string redacted (`urlForLog`). No
 * route takes a query string that matters, and a client that puts its upload key (or anything else secret) in the
 * URL must not have it written to the log. The client address is left out: it is personal data, kept with the lead
 * instead.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  return { method: request.method, url: urlForLog(request.url ?? ''), id: request.id };
}
