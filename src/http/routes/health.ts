import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { problemResponse } from '../problem.js';
import { okResponse, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from '../response-headers.js';
import type { DomainContext } from '../../domain/context.js';

const Ok = Type.Object({ ok: Type.Literal(true) }, { description: 'OK', examples: [{ ok: true }] });

const NotReady = problemResponse(
  'service_unavailable',
  'The database is not answering',
  '`service_unavailable`: the database did not answer within 2 s; retry after `Retry-After`',
  {},
  { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER },
);
const OkResponse = okResponse(Ok, REQUEST_ID_HEADER);
/** The one refusal a probe can meet: the HTTP layer's, for a URL over 8 KiB, before any route runs. */
const UriTooLong = problemResponse(
  'uri_too_long',
  'The URL is longer than 8 KiB',
  '`uri_too_long`: the URL is over 8 KiB (refused before any route)',
);

/** Liveness (the process answers) and readiness (the database answers within 2 s). */
export const healthRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'The process is up',
        operationId: 'getHealth',
        security: [],
        response: { 200: OkResponse, 414: UriTooLong },
      },
    },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'The database answers',
        operationId: 'getReadiness',
        security: [],
        response: { 200: OkResponse, 414: UriTooLong, 503: NotReady },
      },
    },
    async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), 2000);
      });
      try {
        await Promise.race([ctx.store.ping(), timeout]);
      } catch {
        throw new AppError('service_unavailable', 'The database is not answering', undefined, { retryAfterSeconds: 5 });
      } finally {
        clearTimeout(timer);
      }
      return { ok: true as const };
    },
  );
};
