import type { FastifyRequest } from 'fastify';

/**
 * The request as logged: method, URL and id, with the query string replaced by `?[redacted]`. No route takes a
 * query string that matters, and a client that puts its upload key (or anything else secret) in the URL must not
 * have it written to the log. The client address is left out: it is personal data, kept with the lead instead.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? url : `${url.slice(0, query)}?[redacted]`,
    id: request.id,
  };
}
