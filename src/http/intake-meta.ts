import type { FastifyRequest } from 'fastify';
import type { IntakeMeta } from '../domain/intake/submit-lead.js';

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? null : text;
}

/** What an intake submission records about its request (docs/api.md), for the API and the hosted form alike. */
export function intakeMeta(request: FastifyRequest): IntakeMeta {
  return {
    clientIp: request.ip || null,
    userAgent: headerText(request.headers['user-agent']),
    origin: headerText(request.headers.origin),
    referer: headerText(request.headers.referer),
    // With its port when the request named one: another site on this machine is another site.
    host: request.host || null,
  };
}
