import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError, ERROR_CODES } from '../../domain/errors.js';
import { problemRef } from '../problem.js';
import type { DomainContext } from '../../domain/context.js';

const Ok = Type.Object({ ok: Type.Literal(true) }, { examples: [{ ok: true }] });

/** Keyed by media type, so the document says application/problem+json, which is what sendProblem sends. */
const NotReady = {
  description: '`service_unavailable`: the database did not answer within 2 s; retry after `Retry-After`',
  content: {
    'application/problem+json': {
      schema: problemRef,
      example: {
        ok: false,
        type: 'http://localhost:3000/problems/service_unavailable',
        title: ERROR_CODES.service_unavailable.title,
        status: 503,
        detail: 'The database is not answering',
        code: 'service_unavailable',
        requestId: '0b5d3b1e-6a4f-4c0e-9d47-2f1f6f0c9a11',
      },
    },
  },
};

/** Liveness (the process answers) and readiness (the database answers within 2 s). */
export const healthRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['Operations'], summary: 'The process is up', response: { 200: Ok } } },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'The database answers',
        response: { 200: Ok, 503: NotReady },
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
        throw new AppError('service_unavailable', 'The database is not answering', undefined, { 'retry-after': '5' });
      } finally {
        clearTimeout(timer);
      }
      return { ok: true as const };
    },
  );
};
