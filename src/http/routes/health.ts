import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { problemResponse } from '../problem.js';
import { okResponse, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from '../response-headers.js';
import type { DomainContext } from '../../domain/context.js';

const Ok = Type.Object({ ok: Type.Literal(true) }, { description: 'OK', examples: [{ ok: true }] });
const Healthy = Type.Object(
  { ok: Type.Literal(true), database: Type.Literal('writable') },
  {
    description: 'The process answers and the database took a test write',
    examples: [{ ok: true, database: 'writable' }],
  },
);

const NotReady = problemResponse(
  'service_unavailable',
  'The database is not answering',
  '`service_unavailable`: the database did not answer within 2 s; retry after `Retry-After`',
  {},
  { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER },
);
const OkResponse = okResponse(Ok, REQUEST_ID_HEADER);
const HealthyResponse = okResponse(Healthy, REQUEST_ID_HEADER);
const NotWritable = problemResponse(
  'service_unavailable',
  'The database cannot take writes: the disk is full. Free space where the database lives (leadscan doctor says how ' +
    'much is free)',
  '`service_unavailable`: the database did not take a test write; `detail` says why (the disk is full, the database ' +
    'is read-only, it does not answer, or the write failed)',
  {},
  { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER },
);

/**
 * How long one test write answers for (docs/operations.md, "Health"): a monitor polling hard costs a write a second.
 */
export const WRITE_PROBE_CACHE_MS = 1000;
const WRITE_PROBE_TIMEOUT_MS = 2000;

type WriteProbe = Awaited<ReturnType<DomainContext['store']['probeWrite']>>;
type WriteProblem = Extract<WriteProbe, { writable: false }>['problem'];

/** What /healthz says for each problem: the reason, and where to look; never the database's own text (paths). */
const NOT_WRITABLE: Record<WriteProblem, string> = {
  disk_full:
    'The database cannot take writes: the disk is full. Free space where the database lives (leadscan doctor says ' +
    'how much is free)',
  read_only: 'The database cannot take writes: it is read-only (a standby server, or a read-only file or mount)',
  unreachable: 'The database cannot take writes: it does not answer',
  failed: 'The database cannot take writes: a test write failed; the server log has the error',
};

/**
 * The database's writability, probed at most once per WRITE_PROBE_CACHE_MS of the domain clock: callers within that
 * time share the last answer, and callers while a probe runs share that probe.
 */
function writeHealth(ctx: DomainContext, onProblem: (probe: Extract<WriteProbe, { writable: false }>) => void) {
  let last: { at: number; probe: WriteProbe } | undefined;
  let running: Promise<WriteProbe> | undefined;
  return async (): Promise<WriteProbe> => {
    const now = ctx.clock.now().getTime();
    if (last && now - last.at < WRITE_PROBE_CACHE_MS && now >= last.at) return last.probe;
    running ??= ctx.store
      .probeWrite(WRITE_PROBE_TIMEOUT_MS)
      .then((probe) => {
        last = { at: ctx.clock.now().getTime(), probe };
        if (!probe.writable) onProblem(probe);
        return probe;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}
/** The one refusal a probe can meet: the HTTP layer's, for a URL over 8 KiB, before any route runs. */
const UriTooLong = problemResponse(
  'uri_too_long',
  'The URL is longer than 8 KiB',
  '`uri_too_long`: the URL is over 8 KiB (refused before any route)',
);

/**
 * Health (the process answers and the database takes writes: a test write, cached a second) and readiness (the
 * database answers within 2 s).
 */
export const healthRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  // Said once per probe, not per request: the database's own error (which may name files) goes to the log only.
  const writable = writeHealth(ctx, (probe) =>
    app.log.error({ err: probe.error, problem: probe.problem }, 'health: the database cannot take writes'),
  );
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'The process is up and the database takes writes',
        operationId: 'getHealth',
        security: [],
        response: { 200: HealthyResponse, 414: UriTooLong, 503: NotWritable },
      },
    },
    async () => {
      const probe = await writable();
      if (!probe.writable)
        throw new AppError('service_unavailable', NOT_WRITABLE[probe.problem], undefined, { retryAfterSeconds: 5 });
      return { ok: true as const, database: 'writable' as const };
    },
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
