import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';

/** The request encodings both write endpoints read (RFC 9110 §8.4), as sent back in Accept-Encoding on a 415. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** A header value as it may appear in an error detail: short, printable. */
export function boundedForDetail(value: string, max = 80): string {
  const printable = value.replace(/[^\x20-\x7E]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

/** The decoding stream Fastify reads the body from; it counts the encoded bytes for the size and length checks. */
type DecodedPayload = PassThrough & { receivedEncodedLength: number };

/**
 * preParsing hook for `Content-Encoding: gzip | deflate | br` (and `identity`, or none). The body is decoded as a
 * stream, so the route's body limit applies to the DECODED bytes as they come out (a 50 KB gzip bomb that inflates
 * to 50 MiB is cut off at the limit, 413), and Fastify applies the same limit to the encoded bytes too (Content-Length
 * and the count below). Any other coding, or two codings stacked, is 415 `unsupported_encoding` with
 * `Accept-Encoding` naming what is read; a body that is not what its coding says is 400 `unreadable_body`.
 */
export async function decodeContentEncoding(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: Readable,
): Promise<Readable> {
  const header = request.headers['content-encoding'];
  if (header === undefined) return payload;
  const codings = String(header)
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return payload;
  const makeDecoder = codings.length === 1 && Object.hasOwn(DECODERS, codings[0]!) ? DECODERS[codings[0]!] : undefined;
  if (!makeDecoder) {
    throw new AppError(
      'unsupported_encoding',
      `The Content-Encoding "${boundedForDetail(
        String(header),
      )}" is not read here; send the body as it is, or with one of ${ACCEPTED_ENCODINGS}`,
      undefined,
      { accepted: ACCEPTED_ENCODINGS.split(', ') },
    );
  }
  const coding = codings[0]!;
  const decoder = makeDecoder();
  const out = new PassThrough() as DecodedPayload;
  out.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  // A client that hangs up surfaces as the request's own error (client_aborted), not as a decoding problem.
  payload.on('error', (error) => out.destroy(error));
  decoder.on('error', () => {
    out.destroy(new AppError('unreadable_body', `The body is not valid ${coding} data, as its Content-Encoding says`));
  });
  // Fastify listens for errors on `out` only while it reads the body; a decoder failing after that (the limit was
  // hit, or the content type was refused unread) is moot, and must not become an uncaught exception.
  out.on('error', () => {});
  payload.pipe(decoder).pipe(out);
  // Once the answer is out (a 413 at the limit included), stop inflating whatever the client still sends.
  const stop = () => {
    payload.unpipe(decoder);
    decoder.destroy();
    out.destroy();
  };
  reply.raw.once('finish', stop);
  reply.raw.once('close', stop);
  return out;
}
