/**
 * Response headers as documented in /openapi.json (what @fastify/swagger turns into a response's `headers`).
 * The conformance test checks that every one of these a response carries is documented for its status.
 */
const header = (description: string, example: string) => ({
  type: 'string' as const,
  description,
  examples: [example],
});

export const REQUEST_ID_HEADER = {
  'x-request-id': header(
    'Identifies this request in the logs; a sane incoming x-request-id is echoed',
    '5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00',
  ),
};

export const RATE_LIMIT_HEADERS = {
  RateLimit: header(
    'Requests left in the current window (r) and seconds until it resets (t), ' +
      'draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on',
    '"intake";r=29;t=60',
  ),
  'RateLimit-Policy': header('The quota (q) per window of w seconds; sent when the limit is on', '"intake";q=30;w=60'),
};

export const RETRY_AFTER_HEADER = { 'Retry-After': header('Seconds to wait before retrying', '42') };

export const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': header(
    '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    'true',
  ),
};

export const ACCEPT_ENCODING_HEADER = {
  'Accept-Encoding': header('The request Content-Encodings this endpoint reads', 'gzip, deflate, br'),
};

export const CORS_RESPONSE_HEADERS = {
  'Access-Control-Allow-Origin': header('Always `*`: any site may post leads (no credentials)', '*'),
  'Access-Control-Expose-Headers': header(
    'Headers a browser script may read',
    'x-request-id, Retry-After, RateLimit, RateLimit-Policy',
  ),
};

export type HeaderDocs = Record<string, ReturnType<typeof header>>;

/** A documented success response: one JSON media type with its schema and example, and its headers. */
export function okResponse(schema: { description?: string; examples?: unknown[] }, headers: HeaderDocs) {
  return {
    description: schema.description ?? 'Success',
    headers,
    content: { 'application/json': { schema, example: schema.examples?.[0] } },
  };
}
