import zlib from 'node:zlib';
import fc from 'fast-check';
import { jsonValueText, uploadBodyText } from '../fixtures/json-text-arbitrary.js';

/**
 * fast-check arbitraries for hostile HTTP requests to the two write endpoints and the hosted form: malformed and
 * deeply nested JSON, invalid UTF-8, `__proto__` keys, broken multipart and form bodies, odd content types and
 * encodings, huge header values. Every one of them must be answered in the contract's words: never a 5xx.
 */

export type Target =
  'intake' | 'intake-unknown-token' | 'intake-malformed-token' | 'form' | 'scan' | 'scan-no-key' | 'scan-wrong-key';

export interface HostileRequest {
  target: Target;
  contentType: string | undefined;
  encoding: string | undefined;
  /** How the body is sent: as is, compressed as `encoding` says, or labelled compressed while it is not. */
  compress: 'as-labelled' | 'not-really' | 'truncated';
  extraHeaders: Record<string, string>;
  body: Buffer;
  /** True when the header block is over Node's 16 KiB limit: the answer is 431. */
  hugeHeaders: boolean;
}

const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const leadJson = fc
  .record(
    {
      name: fc.oneof(fc.string({ maxLength: 150 }), fc.integer(), fc.constant(null), fc.boolean()),
      phone: fc.oneof(fc.string({ maxLength: 50 }), fc.double(), fc.constant('')),
      email: fc.string({ maxLength: 170 }),
      notes: fc.string({ unit: 'grapheme', maxLength: 300 }),
      website: fc.constantFrom('', 'http://spam.example'),
      botCheckToken: fc.string({ maxLength: 20 }),
      extra: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
    },
    { requiredKeys: [] },
  )
  .map((lead) => JSON.stringify(lead));

const protoKeys = fc
  .tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'name'),
    jsonValueText,
    fc.boolean(),
  )
  .map(
    ([key, value, withName]) =>
      `{"${key}":${value},"__proto__":{"name":"polluted","isAdmin":true}${withName ? ',"name":"Ada"' : ''},"constructor":{"prototype":{"x":1}}}`,
  );

const deepNesting = fc
  .tuple(fc.integer({ min: 60, max: 20_000 }), fc.constantFrom('[', '{"a":'), fc.boolean(), fc.boolean())
  .map(([depth, open, balanced, inName]) => {
    const close = open === '[' ? ']' : '}';
    const inner = `${open.repeat(depth)}1${balanced ? close.repeat(depth) : ''}`;
    return inName ? `{"name":"Ada","x":${inner}}` : `{"rooms":[${inner}]}`;
  });

/** Valid JSON cut or spliced at a random place. */
const malformedJson = fc
  .tuple(
    fc.oneof(leadJson, uploadBodyText({ valid: true })),
    fc.nat(),
    fc.constantFrom('', '}', ']', ',', '"', '\\', ':', 'x', '\u0000'),
  )
  .map(([text, at, insert]) => {
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + insert + text.slice(cut + (at % 3));
  });

/** Bytes that are not UTF-8, placed inside otherwise good JSON. */
const invalidUtf8 = fc
  .tuple(
    fc.oneof(leadJson, uploadBodyText({ valid: true })),
    fc.constantFrom(
      [0xff],
      [0xc3],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xe2, 0x82],
      [0xfe, 0xff],
    ),
    fc.nat(),
  )
  .map(([text, bad, at]) => {
    const bytes = Buffer.from(text);
    const cut = at % (bytes.length + 1);
    return Buffer.concat([bytes.subarray(0, cut), Buffer.from(bad), bytes.subarray(cut)]);
  });

const urlEncoded = fc
  .array(
    fc.tuple(
      fc.constantFrom('name', 'email', 'phone', 'notes', 'website', '__proto__', 'x', '%FF', 'a%'),
      printable(40),
    ),
    { maxLength: 8 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v.replace(/[&=]/g, '%26')}`).join('&'));

const BOUNDARY = 'fuzzBoundary42';
const brokenMultipart = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('name', 'email', 'notes', '__proto__', 'file'), printable(60), fc.boolean()), {
      maxLength: 4,
    }),
    fc.constantFrom('ok', 'no-final', 'wrong-boundary', 'no-headers', 'garbage-tail', 'bare-cr'),
  )
  .map(([parts, breakage]) => {
    const boundary = breakage === 'wrong-boundary' ? 'otherBoundary' : BOUNDARY;
    const body = parts
      .map(([name, value, isFile]) =>
        breakage === 'no-headers'
          ? `--${boundary}\r\n\r\n${value}\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${isFile ? '; filename="a.bin"\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n${value}\r\n`,
      )
      .join('');
    const end = breakage === 'no-final' ? '' : `--${boundary}--\r\n`;
    const tail = breakage === 'garbage-tail' ? '\u0000\u00ff--' : breakage === 'bare-cr' ? '\r' : '';
    return body + end + tail;
  });

const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: leadJson.map((t) => Buffer.from(t)) },
  { weight: 2, arbitrary: uploadBodyText({ valid: true }).map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: uploadBodyText({ valid: false }).map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: jsonValueText.map((t) => Buffer.from(t)) },
  { weight: 2, arbitrary: deepNesting.map((t) => Buffer.from(t)) },
  { weight: 2, arbitrary: malformedJson.map((t) => Buffer.from(t)) },
  { weight: 2, arbitrary: invalidUtf8 },
  { weight: 2, arbitrary: protoKeys.map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: urlEncoded.map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: brokenMultipart.map((t) => Buffer.from(t, 'latin1')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
);

const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      `multipart/form-data; boundary=${BOUNDARY}`,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'foo',
      'text/',
      '/json',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'application/json; charset=latin1',
      'application/json; charset',
      '*/*',
      'image/png',
      'application/json, text/plain',
      'application/x-www-form-urlencoded;;;',
    ),
  },
  { weight: 1, arbitrary: printable(60) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 12_000 }).map((n) => `application/${'x'.repeat(n)}`) },
);

const encoding = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'GZIP', 'identity', 'x-gzip') },
  { weight: 1, arbitrary: fc.constantFrom('compress', 'zstd', 'gzip, br', 'identity, gzip', '', ' , ') },
  { weight: 1, arbitrary: printable(30) },
);

const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant({} as Record<string, string>) },
  { weight: 2, arbitrary: printable(300).map((key) => ({ 'idempotency-key': key })) },
  { weight: 1, arbitrary: fc.integer({ min: 4000, max: 24_000 }).map((n) => ({ 'x-padding': 'p'.repeat(n) })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => ({ 'x-scan-key': `lsk_${'k'.repeat(n)}` })),
  },
  { weight: 1, arbitrary: printable(200).map((agent) => ({ 'user-agent': agent, origin: agent, referer: agent })) },
);

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .record({
    target: fc.constantFrom<Target>(
      'intake',
      'intake',
      'form',
      'scan',
      'scan',
      'intake-unknown-token',
      'intake-malformed-token',
      'scan-no-key',
      'scan-wrong-key',
    ),
    contentType,
    encoding,
    compress: fc.constantFrom<HostileRequest['compress']>('as-labelled', 'as-labelled', 'not-really', 'truncated'),
    extraHeaders,
    body,
  })
  .map((request) => {
    const headerBytes =
      Object.values(request.extraHeaders).reduce((sum, v) => sum + v.length, 0) + (request.contentType?.length ?? 0);
    return {
      ...request,
      body: encodeBody(request.body, request.encoding, request.compress),
      hugeHeaders: headerBytes > 15_000,
    };
  });

function encodeBody(body: Buffer, encoding: string | undefined, how: HostileRequest['compress']): Buffer {
  const coding = encoding?.trim().toLowerCase();
  const encoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.gzipSync
      : coding === 'deflate'
        ? zlib.deflateSync
        : coding === 'br'
          ? zlib.brotliCompressSync
          : undefined;
  if (!encoder || how === 'not-really') return body;
  const encoded = encoder(body);
  return how === 'truncated' ? encoded.subarray(0, Math.floor(encoded.length / 2)) : encoded;
}
