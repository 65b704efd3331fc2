import type { FastifyRequest } from 'fastify';

/**
 * The pages whose link carries a one-time secret in its path: `/setup/{token}` (set a password),
 * `/confirm-email/{token}` (confirm a new email) and `/q/{token}` (a customer's quote link). The database keeps only
 * a hash of such a token, so the log must not keep the token either. Intake and hosted-form tokens are not secret:
 * they are printed in every page that embeds the form, and stay in the log to tell the sources apart.
 */
export const ONE_TIME_LINK_PREFIXES = ['setup', 'confirm-email', 'q'] as const;

/**
 * The one rule (docs/security.md, Logs): everything after a one-time link's prefix, whatever its case and however
 * many slashes a client sent, as the router may still find the page.
 */
const ONE_TIME_LINK = new RegExp(`^(/+(?:${ONE_TIME_LINK_PREFIXES.join('|')})(?:/+|$))[^?#]*`, 'i');

/** A request's URL as it may be logged: a one-time link's token becomes `[redacted]`, a query string `?[redacted]`. */
export function urlForLog(url: string): string {
  const path = url.replace(ONE_TIME_LINK, (_whole, prefix: string) =>
    prefix.endsWith('/') ? `${prefix}[redacted]` : prefix,
  );
  const query = path.indexOf('?');
  return query === -1 ? path : `${path.slice(0, query)}?[redacted]`;
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
