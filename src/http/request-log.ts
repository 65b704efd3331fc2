import type { FastifyRequest } from 'fastify';

/**
 * The request as logged: Fastify's default fields, with the query string replaced by `?[redacted]`. No route takes
 * a query string that matters, and a client that puts its upload key (or anything else secret) in the URL must not
 * have it written to the log.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? url : `${url.slice(0, query)}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
