import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { AppError, type ErrorCode, type FieldError } from '../domain/errors.js';
import { HTTP_ERRORS, httpHeadersOf, httpStatusOf } from './error-statuses.js';
import { REQUEST_ID_HEADER } from './response-headers.js';
import { storageUnavailable, unstorableText } from '../storage/storage-errors.js';

export const FieldErrorSchema = Type.Object({
  field: Type.String(),
  code: Type.String(),
  message: Type.String(),
  max: Type.Optional(Type.Integer()),
});

/** RFC 9457 problem details plus our stable `code` (docs/api.md). */
export const ProblemSchema = Type.Object(
  {
    ok: Type.Literal(false),
    type: Type.String({ format: 'uri', description: 'Documents the code' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable snake_case error code', examples: ['missing_contact'] }),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
    requestId: Type.String(),
  },
  { $id: 'Problem', description: 'application/problem+json error body' },
);

export type Problem = Static<typeof ProblemSchema>;

export const problemRef = Type.Unsafe<Problem>(Type.Ref('Problem'));

/**
 * A documented problem response for the OpenAPI document: keyed by media type (what sendProblem sends), the shared
 * Problem schema, and an example built from the code's own status and title.
 */
export function problemResponse(
  code: ErrorCode,
  detail: string,
  description?: string,
  extra: Partial<Problem> = {},
  headers: Record<string, unknown> = REQUEST_ID_HEADER,
) {
  return {
    description: description ?? HTTP_ERRORS[code].title,
    headers,
    content: {
      'application/problem+json': {
        schema: problemRef,
        example: {
          ok: false,
          type: `http://localhost:3000/problems/${code}`,
          title: HTTP_ERRORS[code].title,
          status: HTTP_ERRORS[code].status,
          detail,
          code,
          requestId: '5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00',
          ...extra,
        },
      },
    },
  };
}

export function problemTypeUri(baseUrl: string, code: ErrorCode): string {
  return `${baseUrl}/problems/${code}`;
}

/** A detail can quote what the client sent (a media type, a parser message); it never grows past this. */
export const MAX_DETAIL_LENGTH = 500;

function boundedDetail(detail: string): string {
  return detail.length > MAX_DETAIL_LENGTH ? `${detail.slice(0, MAX_DETAIL_LENGTH - 1)}…` : detail;
}

export function buildProblem(baseUrl: string, requestId: string, error: AppError): Problem {
  const problem: Problem = {
    ok: false,
    type: problemTypeUri(baseUrl, error.code),
    title: HTTP_ERRORS[error.code].title,
    status: httpStatusOf(error),
    detail: boundedDetail(error.detail),
    code: error.code,
    requestId,
  };
  if (error.fieldErrors?.length) problem.errors = error.fieldErrors as FieldError[];
  return problem;
}

/**
 * The client hung up before its request was complete (a reset or a closed socket mid-body). Node reports it as an
 * ECONNRESET "aborted" error on the request stream, the same code a lost database connection has, so it is told
 * apart by the request itself: it is not an outage, and not ours to log as one.
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return raw.readableAborted || (code === 'ECONNRESET' && (raw.destroyed || raw.socket?.destroyed === true));
}

/**
 * Every error the framework or the domain raises becomes an AppError here, once. Anything not recognized is a
 * 500 whose detail shows no internals; the log carries the stack with the request id. With the request, a client
 * that hung up mid-body is `client_aborted` (logged at info like any refusal), never a 503.
 */
export function toAppError(error: FastifyError | AppError | Error, request?: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (request && isClientAbort(error, request)) {
    return new AppError('client_aborted', 'The connection closed before the whole request body arrived');
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('body_too_large', 'The request body is larger than this endpoint accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unreadable_body', 'The request body could not be read as JSON');
    case 'FST_ERR_RATE_LIMIT_EXCEEDED':
      return new AppError('rate_limited', 'Too many requests; wait and try again');
    default:
      break;
  }
  if (fastifyError.validation) {
    return new AppError(
      'invalid_request',
      `The request is not valid: ${fastifyError.message}`,
      fastifyError.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(v.params?.missingProperty ?? ''),
        code: 'invalid',
        message: v.message ?? 'is not valid',
      })),
    );
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError('unreadable_body', 'The request body is not valid JSON');
  }
  if (unstorableText(error)) {
    return new AppError(
      'invalid_request',
      'A value holds a NUL byte or another control character that cannot be stored or searched. Remove it and try ' +
        'again',
    );
  }
  // The one place a storage failure becomes an answer: a StorageUnavailableError (made in storage/; a writer that
  // still rejects with the driver's own error has it typed here, by storage/'s rules) is 503.
  if (storageUnavailable(error)) {
    return new AppError(
      'service_unavailable',
      'The database is not answering; this request was not confirmed as stored. Try again shortly',
      undefined,
      { retryAfterSeconds: 5 },
    );
  }
  const status = fastifyError.statusCode;
  if (status === 413) return new AppError('body_too_large', 'The request body is larger than this endpoint accepts');
  if (status === 415) return new AppError('unsupported_media_type', fastifyError.message);
  if (status === 429) return new AppError('rate_limited', 'Too many requests; wait and try again');
  if (status === 503)
    return new AppError('service_unavailable', 'The service is busy; try again shortly', undefined, {
      retryAfterSeconds: 5,
    });
  if (status !== undefined && status >= 400 && status < 500)
    return new AppError('invalid_request', fastifyError.message);
  return new AppError(
    'internal_error',
    'Something went wrong on our side. Try again; if it persists, quote the request id',
  );
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError, baseUrl: string) {
  reply.headers(httpHeadersOf(error));
  return reply
    .code(httpStatusOf(error))
    .type('application/problem+json; charset=utf-8')
    .send(buildProblem(baseUrl, request.id, error));
}
