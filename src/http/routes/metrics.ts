import crypto from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { Metrics } from '../metrics.js';

function sameToken(given: string, expected: string): boolean {
  // Compare digests: constant time, whatever the lengths.
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * `GET /metrics` (docs/operations.md): Prometheus text, only with `Authorization: Bearer $METRICS_TOKEN`. Without
 * METRICS_TOKEN the route does not exist (404), so an instance does not advertise it.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (!given || !sameToken(given, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('invalid_metrics_token', 'Send the METRICS_TOKEN as Authorization: Bearer <token>');
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
};
