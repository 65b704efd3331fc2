import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import { toAppError } from './problem.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { outboxStatus } from '../domain/notifications/outbox.js';
import type { IntakeOutcome } from '../domain/intake-log/intake-outcomes.js';

/**
 * The service's Prometheus metrics (docs/operations.md), one registry per app so several apps in one process (tests,
 * workers) never share or clash. Labels are bounded: route patterns (never raw URLs), status codes, error codes.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'leadscan_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'leadscan_http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly leads = new Counter({
    name: 'leadscan_leads_total',
    help:
      'Lead submissions by outcome (accepted, quarantined, refused) and code (the refusal code, the quarantine ' +
      'reason)',
    labelNames: ['outcome', 'code'] as const,
    registers: [this.registry],
  });
  private readonly scanUploads = new Counter({
    name: 'leadscan_scan_uploads_total',
    help: 'Scan uploads stored',
    registers: [this.registry],
  });
  private readonly scanBytes = new Counter({
    name: 'leadscan_scan_upload_bytes_total',
    help: 'Bytes of stored scan upload bodies',
    registers: [this.registry],
  });
  private readonly commitBatch = new Histogram({
    name: 'leadscan_commit_batch_size',
    help: 'Writes folded into one group-commit transaction',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
  private readonly commitTime = new Histogram({
    name: 'leadscan_commit_duration_seconds',
    help: 'Time of one group-commit transaction, from BEGIN to a flushed COMMIT',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly emails = new Counter({
    name: 'leadscan_emails_total',
    help:
      'Email attempts settled by this process, by outcome: sent, pending (failed, to be retried), failed (given ' +
      'up), dropped',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  observeEmail(outcome: string): void {
    this.emails.inc({ outcome });
  }

  /** The outbox's depth and its oldest waiting email's age, read from the database at each scrape. */
  watchOutbox(ctx: DomainContext): void {
    let status: Promise<{ waiting: number; oldestAgeSeconds: number }> | undefined;
    // One read serves both gauges of a scrape.
    const read = () =>
      (status ??= outboxStatus({ ctx, input: { workspaceId: null } })
        .then((s) => ({
          waiting: s.waiting,
          oldestAgeSeconds: s.oldestWaitingAt
            ? Math.max(0, (ctx.clock.now().getTime() - Date.parse(s.oldestWaitingAt)) / 1000)
            : 0,
        }))
        .finally(() => setImmediate(() => (status = undefined))));
    new Gauge({
      name: 'leadscan_outbox_waiting',
      help: 'Emails in the outbox waiting to be sent (including ones being retried)',
      registers: [this.registry],
      async collect() {
        this.set((await read()).waiting);
      },
    });
    new Gauge({
      name: 'leadscan_outbox_oldest_waiting_seconds',
      help: 'Age of the oldest email waiting in the outbox; 0 when none waits',
      registers: [this.registry],
      async collect() {
        this.set((await read()).oldestAgeSeconds);
      },
    });
  }

  /** Process metrics (CPU, memory, event-loop delay as nodejs_eventloop_lag_* ), only where they are served. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  observeIntake(outcome: IntakeOutcome): void {
    this.leads.inc({ outcome: outcome.outcome, code: outcome.code });
  }

  observeScanUpload(bytes: number): void {
    this.scanUploads.inc();
    this.scanBytes.inc(bytes);
  }

  /** The group-commit writer's seam: one call per committed transaction. */
  observeCommitBatch = (size: number, seconds: number): void => {
    this.commitBatch.observe(size);
    this.commitTime.observe(seconds);
  };
}

/** Every answer by route pattern and status; stored scan uploads with their size. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    const bytes = request.scanUpload?.bytes;
    if (route === '/api/scan/upload' && reply.statusCode === 200 && bytes !== undefined)
      metrics.observeScanUpload(bytes);
  });
}

/**
 * An intake refusal, counted for /metrics and the source's intake log: by the opened source, else by the token in
 * the URL (resolved when the log is written; a token of no source is only counted in /metrics).
 */
export function recordIntakeRefusal(ctx: DomainContext, request: FastifyRequest, error: Error): void {
  ctx.intake?.record({
    sourceId: request.intakeSource?.id,
    token: request.intakeToken ?? undefined,
    outcome: 'refused',
    // With the request: a client that hung up is `client_aborted` here too, not an outage in the owner's stats.
    code: toAppError(error, request).code,
  });
}
