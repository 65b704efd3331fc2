import crypto from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { systemClock, type Clock, type DomainContext } from './domain/context.js';
import { AppError } from './domain/errors.js';
import { SecretBox } from './domain/keys/secret-box.js';
import type { Database } from './storage/database.js';
import { ProblemSchema, sendProblem, toAppError } from './http/problem.js';
import { registerOpenApi } from './http/openapi.js';
import { registerLoadShedding, serverTimeoutOptions } from './http/load-shedding.js';
import { intakeRateLimitHook, registerRateLimits } from './http/rate-limit.js';
import { healthRoutes } from './http/routes/health.js';
import { hostedFormRoutes } from './http/routes/hosted-form.js';
import { intakeRoutes } from './http/routes/intake.js';
import { problemDocsRoutes } from './http/routes/problem-docs.js';
import { scanUploadRoutes } from './http/routes/scan-upload.js';
import { adminPlugin } from './web/admin/plugin.js';

/** The app with its type provider: route schemas type the handlers. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface AppDeps {
  store: Database;
  appSecret: string;
  clock?: Clock;
  /** Pino options, or false for no logs (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Prefix of the rate-limit keys in Redis (tests give each test its own). */
  rateLimitKeyPrefix?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: DomainContext;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Secrets and personal data never reach the log (STYLE §10, CONTRACT §2.4). */
export const LOG_REDACT_PATHS = [
  'req.headers["x-scan-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'body.botCheckToken',
  'req.body.botCheckToken',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
}

/** The whole HTTP service as a Fastify instance, not listening: the server and the tests both build it here. */
export async function buildApp(config: Config, deps: AppDeps): Promise<App> {
  const app: App = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    },
    // Body limits are set per route; this is the ceiling for routes that do not say.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    ...serverTimeoutOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: DomainContext = {
    store: deps.store,
    secrets: new SecretBox(deps.appSecret),
    clock: deps.clock ?? systemClock,
    config,
  };
  app.decorate('ctx', ctx);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as Error);
    if (appError.status >= 500) {
      request.log.error({ err: error, code: appError.code }, 'request failed');
    } else {
      request.log.info({ code: appError.code }, 'request refused');
    }
    return sendProblem(request, reply, appError, config.publicBaseUrl);
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new AppError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}; see /docs`),
      config.publicBaseUrl,
    ),
  );

  app.addSchema(ProblemSchema);
  await registerOpenApi(app, config.publicBaseUrl);
  await registerLoadShedding(app, config);
  await registerRateLimits(app, config, { redisKeyPrefix: deps.rateLimitKeyPrefix });
  await app.register(healthRoutes, { ctx });
  await app.register(problemDocsRoutes);
  await app.register(intakeRoutes, { ctx, rateLimit: intakeRateLimitHook(app) });
  await app.register(hostedFormRoutes, { ctx, rateLimit: intakeRateLimitHook(app) });
  await app.register(scanUploadRoutes, { ctx });
  await app.register(adminPlugin, { ctx, appSecret: deps.appSecret });

  return app;
}
