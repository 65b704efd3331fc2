import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { DomainContext } from '../../domain/context.js';
import { authenticateUploadKey } from '../../domain/keys/authenticate-upload-key.js';
import { handOver, storeUploadOnce, type HandedOverBytes } from '../../domain/scans/store-upload-once.js';
import { problemResponse } from '../problem.js';
import { IdempotencyKeyHeaders, idempotencyKeyOf, sendIdempotent } from '../idempotency.js';
import { decodeContentEncoding } from '../content-encoding.js';
import {
  ACCEPT_ENCODING_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  okResponse,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from '../response-headers.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the scan-upload key check; `bytes` when the handler takes the body (its memory may then move). */
    scanUpload?: { workspaceId: string; bytes?: number };
  }
}

/**
 * The upload's body, taken from the request for good: the hot writer may move its memory to the writer thread, so
 * `request.body` is cleared here and the size kept for the metrics, which would otherwise read an emptied Buffer.
 */
function takeBody(request: FastifyRequest, upload: { bytes?: number }): HandedOverBytes<Buffer> {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  request.body = undefined;
  upload.bytes = body.byteLength;
  return handOver(body);
}

/** The workspace the key check opened: a handler behind it always finds one. */
function uploadOf(request: FastifyRequest): { workspaceId: string; bytes?: number } {
  if (!request.scanUpload) throw new Error('the scan key check did not run before this handler');
  return request.scanUpload;
}

export const ScanUploadOkSchema = Type.Object(
  {
    ok: Type.Literal(true),
    count: Type.Integer({ minimum: 0, description: 'Rooms stored; 0 for a connection test' }),
  },
  {
    description: 'The upload is stored; for `rooms: []` the key is checked and nothing is stored',
    examples: [{ ok: true, count: 2 }],
  },
);

/** Documentation of the body; the domain reads the bytes itself (any content type is tried as JSON). */
const ScanUploadBodySchema = Type.Object(
  {
    rooms: Type.Array(Type.Object({ name: Type.Optional(Type.String()) }, { additionalProperties: true }), {
      maxItems: 500,
      description: 'Scan exchange v1 room objects; stored byte for byte as sent. An empty array tests the connection.',
    }),
  },
  {
    additionalProperties: true,
    examples: [
      { rooms: [] },
      {
        rooms: [
          {
            name: 'Kitchen',
            walls: [
              {
                identifier: '5B0B6A52-8C55-4C41-9E4A-3C3D7A3B2F10',
                category: 'wall',
                confidence: 'high',
                dimensions: [4.12, 2.5, 0],
                transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, 0, -2.1, 1],
              },
            ],
          },
        ],
      },
    ],
  },
);

/**
 * The scan upload's rate limit: after the key check, before the body is read (docs/api.md order:
 * key → rate limit → body → store), counted per upload key (http/rate-limit.ts).
 */
export async function rateLimitScanUpload(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const presented = request.headers['x-scan-key'];
  await request.server.rateLimits.scan(request, reply, String(Array.isArray(presented) ? presented[0] : presented));
}

/**
 * Refuses a request whose key is wrong before a byte of its body is read. Like every answer sent before the body
 * is read, the 401 closes the connection without taking the body in (http/lingering-close.ts).
 */
function scanKeyCheck(ctx: DomainContext) {
  return async (request: FastifyRequest) => {
    const presented = request.headers['x-scan-key'];
    request.scanUpload = await authenticateUploadKey({
      ctx,
      input: { presented: Array.isArray(presented) ? presented[0] : presented },
    });
  };
}

/** type/subtype with optional parameters (RFC 9110 §8.3); anything else would make Fastify answer 415. */
const MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(;.*)?$/;

/**
 * Any content type is tried as JSON (docs/api.md), even a blank or malformed Content-Type header: such a header
 * is dropped so the request takes the "no content type" path to the same catch-all parser.
 */
async function readAnyContentType(request: FastifyRequest): Promise<void> {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !MEDIA_TYPE.test(contentType.trim())) delete request.headers['content-type'];
}

/** POST /api/scan/upload (docs/api.md). No CORS: the key is a secret and does not belong in a browser. */
export const scanUploadRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  // Encapsulated: in this plugin every content type (and none) is read as raw bytes, the domain parses them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ctx.config.scanMaxBytes }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/scan/upload',
    {
      bodyLimit: ctx.config.scanMaxBytes,
      // The body is validated by the domain from its bytes; the schema below documents it.
      validatorCompiler: () => () => true,
      onRequest: [scanKeyCheck(ctx), rateLimitScanUpload, readAnyContentType],
      preParsing: decodeContentEncoding,
      schema: {
        tags: ['Scan upload'],
        summary: 'Upload measured rooms',
        operationId: 'uploadScan',
        description:
          "Stores the body byte for byte, and each room's own byte slice, in the Scans inbox of the workspace the " +
          '`x-scan-key` belongs to. Answers only after the upload is durably committed. Any content type is read ' +
          'as UTF-8 JSON; a gzip, deflate or br body is decoded first and the decoded JSON is what is stored. ' +
          '`{"rooms":[]}` is a connection test: nothing is stored.',
        security: [{ scanKey: [] }],
        headers: IdempotencyKeyHeaders,
        body: {
          content: {
            'application/json': { schema: ScanUploadBodySchema },
            '*/*': {
              schema: {
                ...ScanUploadBodySchema,
                description: 'Any other content type, or none, is read as UTF-8 JSON too',
              },
            },
          },
        },
        response: {
          200: okResponse(ScanUploadOkSchema, {
            ...REQUEST_ID_HEADER,
            ...RATE_LIMIT_HEADERS,
            ...IDEMPOTENT_REPLAYED_HEADER,
          }),
          400: problemResponse(
            'invalid_rooms',
            'rooms[2] is not a JSON object; every entry of "rooms" must be a room object (rooms count from 0)',
            '`unreadable_body` (not UTF-8 JSON, or not what its Content-Encoding says), `invalid_idempotency_key`, ' +
              '`invalid_rooms` (no `rooms` array, or an entry that is not an ' +
              'object; the detail names the index) or `too_many_rooms` (over 500)',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS },
          ),
          401: problemResponse(
            'invalid_scan_key',
            'The x-scan-key is not a valid upload key; sign in at http://localhost:3000/login and copy the current ' +
              'key from the Scans screen (Show or Copy)',
            '`missing_scan_key` (no `x-scan-key`) or `invalid_scan_key` (too short, unknown or regenerated away)',
            {},
            REQUEST_ID_HEADER,
          ),
          413: problemResponse(
            'body_too_large',
            'The request body is larger than this endpoint accepts',
            '`body_too_large`: the body is over SCAN_MAX_BYTES (32 MiB by default); nothing is stored',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS },
          ),
          415: problemResponse(
            'unsupported_encoding',
            'The Content-Encoding "compress" is not read here; send the body as it is, or with one of gzip, ' +
              'deflate, br',
            '`unsupported_encoding`: a Content-Encoding other than gzip, deflate, br or identity',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...ACCEPT_ENCODING_HEADER },
          ),
          409: problemResponse(
            'idempotency_in_flight',
            'A request with this Idempotency-Key is still being processed; retry in a moment to receive its answer',
            '`idempotency_in_flight`: an upload with this Idempotency-Key is still being stored; retry after ' +
              '`Retry-After`',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
          ),
          422: problemResponse(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request body; send a new key for a new submission',
            '`idempotency_key_reused`: this Idempotency-Key was used with a different body in the last 24 hours',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS },
          ),
          429: problemResponse(
            'rate_limited',
            'Too many requests; wait and try again',
            '`rate_limited`: too many uploads for this key; wait for `Retry-After` seconds',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
          ),
          503: problemResponse(
            'service_unavailable',
            'The database is not answering; nothing was stored. Try again shortly',
            '`service_unavailable`: the database is not answering; nothing was stored, retry',
            {},
            { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
          ),
        },
      },
    },
    async (request, reply) => {
      const upload = uploadOf(request);
      const outcome = await storeUploadOnce({
        ctx,
        input: {
          workspaceId: upload.workspaceId,
          body: takeBody(request, upload),
          userAgent: request.headers['user-agent'],
          idempotencyKey: idempotencyKeyOf(request),
          contentType: request.headers['content-type'],
        },
      });
      return sendIdempotent(reply, outcome);
    },
  );
};
