import crypto from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DomainContext } from './domain/context.js';
import { AppError } from './domain/errors.js';
import { IntakeLog } from './domain/intake-log/intake-outcomes.js';
import { fastifyLogging } from './logging.js';
import { Metrics, registerRequestMetrics } from './http/metrics.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { ProblemSchema, sendProblem, toAppError } from './http/problem.js';
import { logRequestError } from './http/error-statuses.js';
import { registerOpenApi } from './http/openapi.js';
import { registerLoadShedding, serverTimeoutOptions } from './http/load-shedding.js';
import { registerRateLimits } from './http/rate-limit.js';
import { healthRoutes } from './http/routes/health.js';
import { hostedFormRoutes } from './web/form/hosted-form-routes.js';
import { quoteRoutes } from './web/quote/quote-routes.js';
import { reminderStopRoutes } from './web/quote/reminder-stop-routes.js';
import { invoiceRoutes } from './web/invoice/invoice-routes.js';
import { intakeRoutes } from './http/routes/intake.js';
import { problemDocsRoutes } from './http/routes/problem-docs.js';
import { scanUploadRoutes } from './http/routes/scan-upload.js';
import { trustProxyOption } from './http/trust-proxy.js';
import { registerLingeringClose } from './http/lingering-close.js';
import { clientErrorHandler, frameworkErrors, registerUrlLengthLimit } from './http/framework-refusals.js';
import { adminPlugin } from './web/admin/plugin.js';
import { browserNotFound, prefersHtml } from './web/admin/browser-not-found.js';

/** The app with its type provider: route schemas type the handlers. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface AppOptions {
  /** Pino options, or false for no logs (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Prefix of the rate-limit keys in Redis (tests give each test its own). */
  rateLimitKeyPrefix?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: DomainContext;
    metrics: Metrics;
    /** Per-source intake counts, flushed every 10 s and when the app closes. */
    intakeLog: IntakeLog;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The whole HTTP service as a Fastify instance, not listening: the server and the tests both build it here. */
export async function buildApp(domainCtx: DomainContext, options: AppOptions = {}): Promise<App> {
  const { config } = domainCtx;
  const app: App = Fastify({
    ...fastifyLogging(config, options.logger),
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    },
    // Body limits are set per route; this is the ceiling for routes that do not say.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(config.publicBaseUrl),
    frameworkErrors: frameworkErrors(config.publicBaseUrl),
    ...serverTimeoutOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Intake answers feed /metrics and the per-source intake log; counting is a map update, writing is batched.
  const metrics = new Metrics();
  const intakeLog = new IntakeLog(domainCtx, (error) => app.log.error({ err: error }, 'intake log flush failed'));
  const ctx: DomainContext = {
    ...domainCtx,
    intake: {
      record(outcome) {
        metrics.observeIntake(outcome);
        intakeLog.record(outcome);
      },
    },
  };
  ctx.store.onCommit = metrics.observeCommitBatch;
  if (ctx.mail) metrics.watchOutbox(ctx);
  app.decorate('ctx', ctx);
  app.decorate('metrics', metrics);
  app.decorate('intakeLog', intakeLog);
  intakeLog.start();
  app.addHook('onClose', async () => {
    await intakeLog.stop().catch((error: unknown) => app.log.error({ err: error }, 'intake log flush failed'));
  });
  registerRequestMetrics(app, metrics);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerLingeringClose(app);
  registerUrlLengthLimit(app);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as Error, request);
    logRequestError(request, error, appError, 'request');
    return sendProblem(request, reply, appError, config.publicBaseUrl);
  });

  // A person's browser gets a page it can go on from; programs (and everything under /api/) keep problem+json.
  const notFoundPage = browserNotFound(ctx);
  app.setNotFoundHandler((request, reply) =>
    prefersHtml(request)
      ? notFoundPage(request, reply)
      : sendProblem(
          request,
          reply,
          new AppError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}; see /docs`),
          config.publicBaseUrl,
        ),
  );

  app.addSchema(ProblemSchema);
  await registerOpenApi(app, config.publicBaseUrl);
  await registerLoadShedding(app, config);
  await registerRateLimits(app, config, { redisKeyPrefix: options.rateLimitKeyPrefix });
  await app.register(healthRoutes, { ctx });
  await app.register(problemDocsRoutes);
  await app.register(intakeRoutes, { ctx });
  await app.register(hostedFormRoutes, { ctx });
  await app.register(quoteRoutes, { ctx });
  await app.register(reminderStopRoutes, { ctx });
  await app.register(invoiceRoutes, { ctx });
  await app.register(scanUploadRoutes, { ctx });
  if (config.metricsToken) {
    metrics.collectProcessMetrics();
    await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  }
  await app.register(adminPlugin, { ctx });

  return app;
}
