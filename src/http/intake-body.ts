import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';
import { fromFormEntries } from '../domain/lead-fields.js';
import { boundedForDetail } from './content-encoding.js';

/** The intake's whole-body limit, multipart included (docs/api.md). */
export const INTAKE_BODY_LIMIT = 64 * 1024;

export const ACCEPTED_BODY_TYPES =
  'application/json, application/x-www-form-urlencoded, multipart/form-data, or text/plain holding a JSON object, ' +
  'in UTF-8';

export function unreadableBody(why: string): AppError {
  return new AppError('unreadable_body', `${why}. Send the lead as ${ACCEPTED_BODY_TYPES}`);
}

/**
 * Framework errors raised while reading an intake body (API and hosted form), in the intake's own words: the
 * intake answers an unknown, malformed or broken body with `unreadable_body`, never 415 (docs/api.md).
 */
export function intakeBodyError(error: Error): Error {
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || (error as { statusCode?: number }).statusCode === 413) {
    return new AppError('body_too_large', `The intake accepts bodies up to ${INTAKE_BODY_LIMIT / 1024} KiB`);
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return unreadableBody('The Content-Type is not a valid media type');
  if (code?.startsWith('FST_ERR_CTP_')) return unreadableBody('The body could not be read');
  return error;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw unreadableBody('The body is not valid UTF-8');
  }
}

/** UTF-8 only: a declared charset other than UTF-8 is refused rather than misread. */
function requireUtf8Charset(contentType: string | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw unreadableBody(`The charset ${boundedForDetail(charset, 40)} is not accepted`);
  }
}

function requireNonEmpty(body: Buffer): void {
  if (body.length === 0) throw unreadableBody('The body is empty');
}

/** How deep a lead's JSON may nest: the object itself is level 1. Real forms send 1 or 2. */
export const INTAKE_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `max` arrays/objects, found in one pass over the bytes without parsing
 * (brackets inside strings do not count). Checked before JSON.parse, so a body nested thousands of levels deep
 * is refused at once instead of reaching code that walks it recursively.
 */
export function nestsDeeperThan(body: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i]!;
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** application/json and text/plain: one JSON object. */
export function parseJsonObjectBody(body: Buffer): Record<string, unknown> {
  requireNonEmpty(body);
  if (nestsDeeperThan(body, INTAKE_MAX_JSON_DEPTH)) {
    throw unreadableBody(`The JSON nests deeper than ${INTAKE_MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(body));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadableBody('The body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw unreadableBody(
      `The body must be a JSON object ({ "name": … }), not ${
        Array.isArray(value) ? 'a list' : String(value === null ? 'null' : typeof value)
      }`,
    );
  }
  return value as Record<string, unknown>;
}

const PLUS = 0x2b;
const PERCENT = 0x25;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Percent-decodes to bytes first and only then decodes UTF-8, strictly: `%FF` is invalid UTF-8 and must be refused,
 * where URLSearchParams would quietly turn it into U+FFFD. A stray `%` not followed by two hex digits is kept as
 * sent (what `curl -d 'notes=100% sure'` sends), like URLSearchParams does.
 */
function decodeFormComponent(raw: Buffer): string {
  const out = Buffer.allocUnsafe(raw.length);
  let length = 0;
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i]!;
    if (byte === PLUS) {
      out[length++] = 0x20;
    } else if (byte === PERCENT && hexValue(raw[i + 1]) >= 0 && hexValue(raw[i + 2]) >= 0) {
      out[length++] = hexValue(raw[i + 1]) * 16 + hexValue(raw[i + 2]);
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return decodeUtf8(out.subarray(0, length));
}

/** application/x-www-form-urlencoded, as a browser form sends it. */
export function parseUrlEncodedBody(body: Buffer): Record<string, unknown> {
  requireNonEmpty(body);
  const entries: Array<[string, string]> = [];
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf(0x26, start);
    if (end === -1) end = body.length;
    const pair = body.subarray(start, end);
    if (pair.length > 0) {
      const eq = pair.indexOf(0x3d);
      const key = decodeFormComponent(eq === -1 ? pair : pair.subarray(0, eq));
      const value = eq === -1 ? '' : decodeFormComponent(pair.subarray(eq + 1));
      entries.push([key, value]);
    }
    start = end + 1;
  }
  return fromFormEntries(entries);
}

const REPLACEMENT_CHAR_BYTES = Buffer.from('\uFFFD', 'utf8');

/**
 * multipart/form-data, what `fetch(url, { body: new FormData(form) })` sends. The body is read whole under the
 * 64 KiB limit first, so the limit holds for multipart as for the other types, then parsed with the runtime's own
 * FormData parser (undici). Text parts are fields; file parts are read (within the limit) and ignored.
 */
export async function parseMultipartBody(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  requireNonEmpty(body);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw unreadableBody('The multipart body could not be parsed');
  }
  const entries: Array<[string, string]> = [];
  for (const [key, value] of form) {
    if (typeof value === 'string') entries.push([key, value]);
  }
  // The parser replaces invalid UTF-8 with U+FFFD instead of failing; a U+FFFD that the client did not send
  // (its bytes are nowhere in the body) means the text was not UTF-8.
  const replaced = entries.some(([key, value]) => key.includes('\uFFFD') || value.includes('\uFFFD'));
  if (replaced && !body.includes(REPLACEMENT_CHAR_BYTES)) throw unreadableBody('The body is not valid UTF-8');
  return fromFormEntries(entries);
}

/**
 * The intake's own body parsers, for an encapsulated scope: they replace Fastify's defaults there, so only these
 * types are read and every failure is `unreadable_body` with the accepted types named. The hosted form can
 * register them too, so both paths read bodies the same way.
 */
export function registerIntakeBodyParsers(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  const options = { parseAs: 'buffer' as const, bodyLimit: INTAKE_BODY_LIMIT };
  const jsonParser = async (request: FastifyRequest, body: string | Buffer) => {
    requireUtf8Charset(request.headers['content-type']);
    return parseJsonObjectBody(body as Buffer);
  };
  scope.addContentTypeParser('application/json', options, jsonParser);
  // text/plain lets a page post JSON without a CORS preflight.
  scope.addContentTypeParser('text/plain', options, jsonParser);
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    options,
    async (request: FastifyRequest, body: string | Buffer) => {
      requireUtf8Charset(request.headers['content-type']);
      return parseUrlEncodedBody(body as Buffer);
    },
  );
  scope.addContentTypeParser('multipart/form-data', options, async (request: FastifyRequest, body: string | Buffer) =>
    parseMultipartBody(body as Buffer, request.headers['content-type'] ?? ''),
  );
  // Anything else is refused without reading the body.
  scope.addContentTypeParser('*', (request, _payload, done) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim();
    done(
      unreadableBody(
        type ? `The content type ${boundedForDetail(type)} is not accepted` : 'The request has no Content-Type',
      ),
      undefined,
    );
  });
}
