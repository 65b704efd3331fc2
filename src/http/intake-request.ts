import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openIntake, parseIntakeToken } from '../domain/intake/open-intake.js';
import type { DomainContext } from '../domain/context.js';
import type { IntakeToken } from '../domain/intake-token.js';
import type { LeadSource } from '../domain/sources/source.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The intake token in the path, checked once by `openIntakeSource`; null before that, or on other routes. */
    intakeToken: IntakeToken | null;
    /** The lead source the token opened; set before the body is read. */
    intakeSource: LeadSource | null;
  }
}

/** Gives the requests of an intake scope (the API's and the hosted form's) their token and source. */
export function decorateIntakeRequest(app: FastifyInstance): void {
  app.decorateRequest('intakeToken', null);
  app.decorateRequest('intakeSource', null);
}

/**
 * The one pass from the URL's token to a lead source, in the order docs/api.md gives: token shape → rate limit →
 * source lookup. Runs as an onRequest hook, so a malformed, limited or closed link is answered without reading the
 * body; the source it opened travels down the request to the handler, the refusal counters and the log.
 */
export function intakeSourceOpener(ctx: DomainContext, { cached }: { cached: boolean }) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = parseIntakeToken((request.params as { token: string }).token);
    request.intakeToken = token;
    await request.server.rateLimits.intake(request, reply, token);
    request.intakeSource = await openIntake({ ctx, input: { token, cached } });
  };
}

/** The source the opener put on the request: a handler behind it always finds one. */
export function openedSource(request: FastifyRequest): LeadSource {
  if (!request.intakeSource) throw new Error('intakeSourceOpener did not run before this handler');
  return request.intakeSource;
}
