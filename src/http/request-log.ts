import type { FastifyRequest } from 'fastify';

/**
 * Paths whose segment after the prefix is a secret: `/setup/{token}` is the one-time set-password link itself (the
 * database keeps only its hash, so the log must not keep it either). Intake and hosted-form tokens are not secret:
 * they are printed in every page that embeds the form.
 */
const SECRET_PATHS = [/^(\/setup\/)[^/?#]*/];

/**
 * The request as logged: method, URL and id, with secret path segments replaced by `[redacted]` and the query string replaced by `?[redacted]`. No route takes a
 * query string that matters, and a client that puts its upload key (or anything else secret) in the URL must not
 * have it written to the log. The client address is left out: it is personal data, kept with the lead instead.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  const url = SECRET_PATHS.reduce((text, pattern) => text.replace(pattern, '$1[redacted]'), request.url ?? '');
  const query = url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? url : `${url.slice(0, query)}?[redacted]`,
    id: request.id,
  };
}
