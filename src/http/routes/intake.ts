import type { FastifyPluginAsync, FastifyReply, FastifySchemaCompiler } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { DomainContext } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { LEAD_FIELD_BOUNDS } from '../../domain/lead-fields.js';
import { submitLeadOnce } from '../../domain/intake/submit-lead-once.js';
import { INTAKE_BODY_LIMIT, intakeBodyError, registerIntakeBodyParsers, unreadableBody } from '../intake-body.js';
import { problemResponse } from '../problem.js';
import { IdempotencyKeyHeaders, idempotencyKeyOf, sendIdempotent } from '../idempotency.js';
import { intakeMeta } from '../intake-meta.js';
import { decodeContentEncoding } from '../content-encoding.js';
import {
  ACCEPT_ENCODING_HEADER,
  CORS_RESPONSE_HEADERS,
  IDEMPOTENT_REPLAYED_HEADER,
  okResponse,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from '../response-headers.js';
import { recordIntakeRefusal } from '../metrics.js';
import { decorateIntakeRequest, intakeSourceOpener, openedSource } from '../intake-request.js';

export interface IntakeRoutesOptions {
  ctx: DomainContext;
}

const INTAKE_PATH = '/api/intake/:token';

/** docs/api.md: on every response under /api/intake/, errors included. No credentials, so `*` is allowed. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, Retry-After, RateLimit, RateLimit-Policy',
};
const PREFLIGHT_ALLOWED_HEADERS = ['Content-Type', 'Idempotency-Key'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function preflightAllowedHeaders(requested: string | string[] | undefined): string {
  const names = [...PREFLIGHT_ALLOWED_HEADERS];
  const seen = new Set(names.map((n) => n.toLowerCase()));
  for (const name of String(requested ?? '').split(',')) {
    const trimmed = name.trim();
    if (!HEADER_NAME.test(trimmed) || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    names.push(trimmed);
  }
  return names.join(', ');
}

// ---- schemas (OpenAPI at /openapi.json) ----

/** A text field: a string, or a number or boolean taken as its text; null or "" count as absent. */
const text = (description: string, maxLength?: number) =>
  Type.Optional(
    Type.Union(
      [Type.String(maxLength === undefined ? {} : { maxLength }), Type.Number(), Type.Boolean(), Type.Null()],
      {
        description,
      },
    ),
  );

const LeadInput = Type.Object(
  {
    name: text("The lead's name. One of name, phone or email is required", LEAD_FIELD_BOUNDS.name),
    phone: text('Any format; numbers are taken as text', LEAD_FIELD_BOUNDS.phone),
    email: text('No format check', LEAD_FIELD_BOUNDS.email),
    address: text('Postal address', LEAD_FIELD_BOUNDS.address),
    notes: text('Free text; newlines kept', LEAD_FIELD_BOUNDS.notes),
    message: text('Alias of notes; when both are sent, notes wins and message is kept as an extra field'),
    website: text('Honeypot: leave empty. Any value makes the submission a bot catch (quarantined, no lead)'),
    botCheckToken: text('Token from the bot-check widget, when the source has a bot check'),
    pageUrl: text(
      'The page the form was on (absolute http or https address); shown on the lead and in the CSV export. Its ' +
        'utm_source, utm_medium, utm_campaign, gclid and fbclid parameters are kept on the lead under those names',
    ),
    formStamp: text(
      'Sent by the hosted form only: its signed render time. A post that carries it is checked as a hosted-form post ' +
        "(the source's own fields validated; a stamp under 2 seconds old, missing or forged is quarantined)",
    ),
  },
  {
    additionalProperties: true,
    description:
      'Lead fields. Values are trimmed; "" and null count as absent. Up to 50 other fields are kept with the lead ' +
      'as text (keys up to 100, values up to 2,000 characters; nested JSON as its JSON text). Bounds are Unicode ' +
      'code points.',
    examples: [{ name: 'Ada Lovelace', phone: '+1 415 555 0100', email: 'ada@example.com', notes: 'Kitchen remodel' }],
  },
);

const IntakeOk = Type.Object(
  { ok: Type.Literal(true), id: Type.String({ description: 'The lead id (lead_ + 32 hex digits)' }) },
  {
    description: 'The lead is stored (or, for a honeypot hit, quarantined)',
    examples: [{ ok: true, id: 'lead_0193a4c2e8f07c3b9a1d2e4f5a6b7c8d' }],
  },
);

const TokenParams = Type.Object({
  token: Type.String({ format: 'uuid', description: "The lead source's intake token (a UUID)" }),
});

/** Headers on every intake answer: request id, CORS, and the rate-limit state when the limit is on. */
function answerHeaders(extra: Record<string, unknown> = {}) {
  return { ...REQUEST_ID_HEADER, ...CORS_RESPONSE_HEADERS, ...RATE_LIMIT_HEADERS, ...extra };
}

const intakeSchema = {
  tags: ['Lead intake'],
  summary: 'Post a lead',
  operationId: 'postLead',
  // Anonymous: the source's token in the path is the only credential.
  security: [],
  description:
    'Anonymous; CORS open. Decisions in order: token shape → rate limit → source lookup → body (64 KiB) → ' +
    'honeypot → validation → bot check → store. 200 only after the lead is committed.',
  params: TokenParams,
  headers: IdempotencyKeyHeaders,
  body: {
    content: {
      'application/json': { schema: LeadInput },
      'application/x-www-form-urlencoded': { schema: LeadInput },
      'multipart/form-data': { schema: LeadInput },
      'text/plain': {
        schema: Type.String({
          description: 'A JSON object, as for application/json (lets a page post without a CORS preflight)',
        }),
      },
    },
  },
  response: {
    200: okResponse(IntakeOk, answerHeaders(IDEMPOTENT_REPLAYED_HEADER)),
    400: problemResponse(
      'invalid_fields',
      '1 field(s) need fixing; see errors',
      'malformed_token, unreadable_body (also JSON nested deeper than 64 levels, or a body that is not what its ' +
        'Content-Encoding says), missing_contact, invalid_fields (one entry per field), bot_check_failed or ' +
        'invalid_idempotency_key',
      { errors: [{ field: 'name', code: 'too_long', max: 120, message: 'name must be at most 120 characters' }] },
      answerHeaders(),
    ),
    404: problemResponse(
      'intake_unavailable',
      'This intake link does not exist or has been closed',
      undefined,
      {},
      answerHeaders(),
    ),
    405: problemResponse('method_not_allowed', 'Post leads with POST', undefined, {}, answerHeaders()),
    409: problemResponse(
      'idempotency_in_flight',
      'A request with this Idempotency-Key is still being processed; retry in a moment to receive its answer',
      undefined,
      {},
      answerHeaders(RETRY_AFTER_HEADER),
    ),
    413: problemResponse(
      'body_too_large',
      'The intake accepts bodies up to 64 KiB',
      '`body_too_large`: over 64 KiB (decoded, for a compressed body)',
      {},
      answerHeaders(),
    ),
    415: problemResponse(
      'unsupported_encoding',
      'The Content-Encoding "compress" is not read here; send the body as it is, or with one of gzip, deflate, br',
      '`unsupported_encoding`: a Content-Encoding other than gzip, deflate, br or identity',
      {},
      answerHeaders(ACCEPT_ENCODING_HEADER),
    ),
    422: problemResponse(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body; send a new key for a new submission',
      undefined,
      {},
      answerHeaders(),
    ),
    429: problemResponse(
      'rate_limited',
      'Too many requests; wait and try again',
      undefined,
      {},
      answerHeaders(RETRY_AFTER_HEADER),
    ),
    503: problemResponse(
      'service_unavailable',
      'The database is not answering; nothing was stored. Try again shortly',
      undefined,
      {},
      answerHeaders(RETRY_AFTER_HEADER),
    ),
  },
};

/** Bodies are read and checked by the intake's own parsers and field rules, not by schema validation. */
const noValidation: FastifySchemaCompiler<unknown> = () => () => true;

/**
 * `POST /api/intake/{token}` (docs/api.md). Thin: the token is checked and the source opened in an onRequest hook,
 * so a malformed or closed link is answered without reading the body; then parse → submitLead → answer.
 */
export const intakeRoutes: FastifyPluginAsync<IntakeRoutesOptions> = async (app, { ctx }) => {
  registerIntakeBodyParsers(app);
  decorateIntakeRequest(app);

  // Every answer in this scope carries the CORS headers, including problems raised by hooks and body parsers.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(CORS_HEADERS);
    return payload;
  });
  // Rethrown errors reach the app's error handler, which writes the problem body.
  app.setErrorHandler((error, request) => {
    const refusal = intakeBodyError(error as Error);
    recordIntakeRefusal(ctx, request, refusal);
    throw refusal;
  });

  app.post(
    INTAKE_PATH,
    {
      schema: intakeSchema,
      bodyLimit: INTAKE_BODY_LIMIT,
      validatorCompiler: noValidation,
      // Cached: the lead's INSERT re-checks the source in SQL (source-cache.ts).
      onRequest: intakeSourceOpener(ctx, { cached: true }),
      preParsing: decodeContentEncoding,
    },
    async (request, reply) => {
      const source = openedSource(request);
      // No Content-Type and no body: Fastify calls no parser at all.
      if (request.body === undefined || request.body === null) throw unreadableBody('The request has no body');
      const body = request.body as Record<string, unknown>;
      const outcome = await submitLeadOnce({
        ctx,
        input: {
          source,
          body,
          meta: intakeMeta(request),
          idempotencyKey: idempotencyKeyOf(request),
          log: request.log,
        },
      });
      return sendIdempotent(reply, outcome);
    },
  );

  app.options('/api/intake/*', { schema: { hide: true } }, async (request, reply: FastifyReply) => {
    return reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': preflightAllowedHeaders(request.headers['access-control-request-headers']),
        'access-control-max-age': '86400',
      })
      .send();
  });

  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: INTAKE_PATH,
    schema: { hide: true },
    handler: async () => {
      throw new AppError('method_not_allowed', 'Post leads to this URL with POST', undefined, {
        accepted: ['POST', 'OPTIONS'],
      });
    },
  });

  // Other paths under /api/intake/ still answer with CORS headers, so a browser shows the real problem.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/intake/*',
    schema: { hide: true },
    handler: async (request) => {
      throw new AppError(
        'route_not_found',
        `No route ${request.method} ${request.url.split('?')[0]}; post to /api/intake/{token}`,
      );
    },
  });
};
