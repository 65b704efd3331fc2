import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import underPressure from '@fastify/under-pressure';
import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';

/** Routes that answer even under pressure: a liveness probe must not restart a process that is merely busy. */
const EXEMPT = new Set(['/healthz']);
const RETRY_AFTER_SECONDS = 10;

/**
 * Socket timeouts against slow and idle clients, chosen for 32 MiB scan uploads from mobile links:
 * - requestTimeout (default 10 min): the whole request must arrive by then, so 32 MiB needs ~450 kbit/s;
 * - connectionTimeout (default 60 s): a socket with no bytes either way for this long is closed, which cuts a
 *   client that stalls mid-body long before requestTimeout;
 * - headersTimeout (default 20 s): the headers must be complete by then (slowloris), checked every second
 *   rather than Node's default 30 s;
 * - keepAliveTimeout (default 72 s): above the 60 s idle timeout of common load balancers, so the balancer,
 *   not us, closes idle connections and never sends on a socket we are closing.
 */
export function serverTimeoutOptions(config: Config): Pick<
  FastifyServerOptions,
  'connectionTimeout' | 'requestTimeout' | 'keepAliveTimeout'
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    connectionTimeout: config.connectionTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(config.headersTimeoutMs / 4))),
    },
  };
}

/**
 * Load shedding with @fastify/under-pressure: when the event loop lags or memory runs high, requests are
 * answered at once with 503 service_unavailable and Retry-After instead of queueing until everything times out.
 * /healthz is exempt so an orchestrator does not kill a busy but healthy process.
 */
export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  let lastLogged = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: config.loadShedEventLoopDelayMs,
    maxHeapUsedBytes: config.loadShedHeapUsedBytes,
    maxRssBytes: config.loadShedRssBytes,
    retryAfter: RETRY_AFTER_SECONDS,
    pressureHandler: async (request, _reply, type) => {
      if (EXEMPT.has(request.routeOptions.url ?? '')) return;
      if (Date.now() - lastLogged > 10_000) {
        lastLogged = Date.now();
        request.log.warn({ pressure: type, usage: app.memoryUsage() }, 'under pressure: shedding load with 503');
      }
      throw new AppError(
        'service_unavailable',
        'The service is overloaded right now; nothing was stored. Retry shortly',
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    },
  });
}
