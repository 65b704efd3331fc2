import { isUtf8 } from 'node:buffer';

/**
 * Finds the rooms of a scan upload as BYTE ranges of the request body, so each room can be stored exactly as
 * sent (docs/api.md): nothing is ever re-serialized.
 *
 * A strict RFC 8259 scanner over the bytes, written here rather than taken from a library because the ones that
 * report positions (e.g. jsonc-parser) work on decoded strings (UTF-16 offsets, not bytes) and are lenient
 * (comments, trailing commas), so their idea of "valid" would differ from JSON.parse. Property tests check that
 * this scanner accepts exactly what JSON.parse accepts and that every slice parses to JSON.parse's room.
 *
 * It builds no objects from the content: keys are only compared with "rooms" and "name", so `__proto__` or
 * any other key cannot affect the server. It is iterative (no recursion), so deep nesting cannot overflow the
 * stack. Semantics follow JSON.parse: for a duplicate key the LAST one wins, keys spelled with `\u` escapes are
 * the same key, and any number spelling is just a number token.
 *
 * Byte-order mark: RFC 8259 §8.1 says senders must not add one and parsers MAY ignore it. A leading UTF-8 BOM
 * (EF BB BF) is ignored here (as Fastify's JSON parser does); the stored body still contains it, byte for byte.
 */

export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

export interface RoomSlice {
  /** Byte range [start, end) of the room's value in the body. */
  start: number;
  end: number;
  /** The room is a JSON object (anything else is refused by the caller). */
  isObject: boolean;
  /** The room's `name` when its (last) `name` member is a string; otherwise undefined. */
  name: string | undefined;
}

export type RoomsScan =
  | { kind: 'not_object' }
  /** An object whose (last) `rooms` member is absent or not an array. */
  | { kind: 'no_rooms_array' }
  /** `count` is the number of entries; `rooms` holds the first `keep` of them. */
  | { kind: 'rooms'; count: number; rooms: RoomSlice[] };

const OBJ = 1;
const ARR = 2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ROOMS = Buffer.from('"rooms"');
/** Plain string runs longer than this take the native fast path in scanString. */
const LONG_RUN = 256;

/**
 * Whether bytes [start, end) of `b` hold a control byte (below 0x20), four bytes at a time: for a 32-bit word w,
 * `(w - 0x20202020) & ~w & 0x80808080` is non-zero exactly when one of its bytes is below 0x20 (the "hasless" test
 * of Bit Twiddling Hacks, exact as a yes/no for thresholds up to 128). About three times as fast as a regular
 * expression over a latin1 copy, and it copies nothing.
 */
function hasControlByte(b: Buffer, start: number, end: number): boolean {
  let i = start;
  while (i < end && ((b.byteOffset + i) & 3) !== 0) if (b[i++]! < 0x20) return true;
  const words = (end - i) >> 2;
  const w32 = new Uint32Array(b.buffer, b.byteOffset + i, words);
  for (let k = 0; k < words; k++) {
    const w = w32[k]!;
    if (((w - 0x20202020) & ~w & 0x80808080) !== 0) return true;
  }
  for (i += words * 4; i < end; i++) if (b[i]! < 0x20) return true;
  return false;
}
const NAME = Buffer.from('"name"');

/** Whether the string token [start, end) (quotes included) decodes to the same text as `plain` (a quoted token). */
function keyIs(body: Buffer, start: number, end: number, hasEscape: boolean, plain: Buffer): boolean {
  if (!hasEscape) return end - start === plain.length && body.compare(plain, 0, plain.length, start, end) === 0;
  // Escaped spellings ("r\u006foms") are rare: decode with JSON.parse, which the scanner has already validated.
  return JSON.parse(body.toString('utf8', start, end)) === JSON.parse(plain.toString('utf8'));
}

/**
 * Scans the whole body (throws JsonSyntaxError for anything JSON.parse would refuse, including invalid UTF-8)
 * and reports the top-level shape and the rooms' byte ranges. Only the first `keep` rooms are recorded; the rest
 * are counted, so a body with millions of entries costs no memory.
 */
export function scanRooms(body: Buffer, keep: number): RoomsScan {
  if (!isUtf8(body)) throw new JsonSyntaxError(0, 'The body is not valid UTF-8');
  const len = body.length;
  let pos = len >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;

  // Container stack, grown on demand (nesting depth is bounded only by the body size).
  let stack = new Uint8Array(64);
  let depth = 0;

  // What the caller needs, tracked at depth 1 (top-level members), 2 (rooms entries) and 3 (room members).
  let topIsObject = false;
  let memberIsRooms = false; // the current top-level member's key is "rooms"
  let candidate: { isArray: boolean; count: number; rooms: RoomSlice[] } | undefined;
  let latestRooms: typeof candidate;
  let room: RoomSlice | undefined; // the rooms entry being scanned (depth 2 value)
  let memberIsName = false; // the current member of that room is "name"
  let valueStart = 0;

  const fail = (message: string): never => {
    throw new JsonSyntaxError(pos, pos >= len ? 'Unexpected end of JSON' : message);
  };
  const skipWs = () => {
    while (pos < len) {
      const c = body[pos]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
  };
  /** Scans a string token starting at the quote; returns whether it contains an escape. */
  const scanString = (): boolean => {
    // The hot loop (a base64 mesh is one long string): locals, not the closure's `pos`.
    const b = body;
    const n = len;
    let p = pos + 1;
    let escaped = false;
    let nextQuote = p - 1;
    let nextBackslash = p - 1;
    for (;;) {
      // A long run of plain bytes (a base64 mesh): find its end with the native memchr of indexOf, then check it
      // for control bytes a word at a time (hasControlByte). Anything unusual falls through to the byte loop below,
      // which also names the offset of an error.
      // The positions found are kept while ahead of p, so a string with many escapes is not searched again and
      // again (no quadratic time).
      if (nextQuote !== -1 && nextQuote < p) nextQuote = b.indexOf(QUOTE, p);
      if (nextQuote - p > LONG_RUN) {
        // Searched only up to the quote (a view, no copy): never past this string.
        if (nextBackslash < p) {
          const at = b.subarray(p, nextQuote).indexOf(BACKSLASH);
          nextBackslash = at === -1 ? nextQuote : p + at;
        }
        const end = nextBackslash;
        if (end - p > LONG_RUN && !hasControlByte(b, p, end)) p = end;
      }
      // Plain bytes first, in the tightest loop possible.
      while (p < n) {
        const c = b[p]!;
        if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        p++;
      }
      if (p >= n) {
        pos = p;
        fail('Unterminated string');
      }
      const c = b[p]!;
      if (c === QUOTE) {
        pos = p + 1;
        return escaped;
      }
      if (c === BACKSLASH) {
        escaped = true;
        const e = body[p + 1];
        if (e === 0x75 /* u */) {
          for (let i = 2; i < 6; i++) {
            const h = body[p + i];
            const hex =
              h !== undefined && ((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66));
            if (!hex) {
              pos = p + i;
              fail('Bad \\u escape');
            }
          }
          p += 6;
        } else if (
          e === QUOTE ||
          e === BACKSLASH ||
          e === 0x2f ||
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74
        ) {
          p += 2;
        } else {
          pos = p + 1;
          fail('Bad escape');
        }
      } else {
        pos = p;
        fail('Control character in string');
      }
    }
  };
  const digits = (): number => {
    const from = pos;
    while (pos < len && body[pos]! >= 0x30 && body[pos]! <= 0x39) pos++;
    return pos - from;
  };
  const scanNumber = () => {
    if (body[pos] === 0x2d) pos++;
    if (body[pos] === 0x30) pos++;
    else if (digits() === 0) fail('Bad number');
    if (body[pos] === 0x2e) {
      pos++;
      if (digits() === 0) fail('Bad number fraction');
    }
    if (body[pos] === 0x65 || body[pos] === 0x45) {
      pos++;
      if (body[pos] === 0x2b || body[pos] === 0x2d) pos++;
      if (digits() === 0) fail('Bad number exponent');
    }
  };
  const scanLiteral = (word: string) => {
    for (let i = 0; i < word.length; i++) {
      if (body[pos + i] !== word.charCodeAt(i)) {
        pos += i;
        fail('Unexpected token');
      }
    }
    pos += word.length;
  };
  const push = (kind: number) => {
    if (depth === stack.length) {
      const bigger = new Uint8Array(stack.length * 2);
      bigger.set(stack);
      stack = bigger;
    }
    stack[depth++] = kind;
  };

  /** A value at `at` (its depth) starts at `start` with first byte `c`. */
  const onValueStart = (at: number, start: number, c: number) => {
    if (at === 0) topIsObject = c === 0x7b;
    else if (at === 1 && memberIsRooms) candidate = { isArray: c === 0x5b, count: 0, rooms: [] };
    else if (at === 2 && candidate?.isArray && stack[1] === ARR) {
      room = { start, end: start, isObject: c === 0x7b, name: undefined };
    }
  };
  /** The value at depth `at` ended just before `end`; `start` is where it began. */
  const onValueEnd = (at: number, start: number, end: number, hasEscape: boolean) => {
    if (at === 1 && memberIsRooms) {
      latestRooms = candidate;
      candidate = undefined;
    } else if (at === 2 && room) {
      room.end = end;
      if (candidate!.count < keep) candidate!.rooms.push(room);
      candidate!.count++;
      room = undefined;
    } else if (at === 3 && room?.isObject && memberIsName) {
      // The last "name" wins, as in JSON.parse; a non-string name means the room has no name.
      room.name =
        body[start] === QUOTE
          ? hasEscape
            ? (JSON.parse(body.toString('utf8', start, end)) as string)
            : body.toString('utf8', start + 1, end - 1)
          : undefined;
    }
  };
  /** A member key [start, end) at object depth `at` (the depth of its value). */
  const onKey = (at: number, start: number, end: number, hasEscape: boolean) => {
    if (at === 1) memberIsRooms = topIsObject && keyIs(body, start, end, hasEscape, ROOMS);
    else if (at === 3 && room?.isObject) memberIsName = keyIs(body, start, end, hasEscape, NAME);
  };

  // Start positions of open containers at depths 0..3 (the only ones the hooks care about).
  const openedAt = [0, 0, 0, 0];

  const readKey = () => {
    skipWs();
    if (body[pos] !== QUOTE) fail('Expected a string key');
    const start = pos;
    const escaped = scanString();
    onKey(depth, start, pos, escaped);
    skipWs();
    if (body[pos] !== 0x3a) fail("Expected ':'");
    pos++;
  };

  for (;;) {
    // Expect a value at the current depth.
    skipWs();
    valueStart = pos;
    const c = body[pos];
    if (c === undefined) fail('Unexpected end of JSON');
    onValueStart(depth, valueStart, c!);
    let valueEnded = true;
    let escaped = false;
    if (c === 0x7b || c === 0x5b) {
      if (depth <= 3) openedAt[depth] = valueStart;
      push(c === 0x7b ? OBJ : ARR);
      pos++;
      skipWs();
      if (body[pos] === (c === 0x7b ? 0x7d : 0x5d)) {
        pos++;
        depth--;
      } else {
        if (c === 0x7b) readKey();
        valueEnded = false;
      }
    } else if (c === QUOTE) escaped = scanString();
    else if (c === 0x2d || (c! >= 0x30 && c! <= 0x39)) scanNumber();
    else if (c === 0x74) scanLiteral('true');
    else if (c === 0x66) scanLiteral('false');
    else if (c === 0x6e) scanLiteral('null');
    else fail('Unexpected token');
    if (!valueEnded) continue; // the container's first member/element comes next

    // A value just ended at `pos`; close containers as far as they end here.
    let start = valueStart;
    let ended = escaped;
    for (;;) {
      onValueEnd(depth, start, pos, ended);
      ended = false;
      if (depth === 0) {
        skipWs();
        if (pos !== len) fail('Unexpected data after the JSON value');
        if (!topIsObject) return { kind: 'not_object' };
        if (!latestRooms?.isArray) return { kind: 'no_rooms_array' };
        return { kind: 'rooms', count: latestRooms.count, rooms: latestRooms.rooms };
      }
      skipWs();
      const kind = stack[depth - 1];
      const next = body[pos];
      if (next === 0x2c) {
        pos++;
        if (kind === OBJ) readKey();
        break; // next member/element value
      }
      if ((kind === OBJ && next === 0x7d) || (kind === ARR && next === 0x5d)) {
        pos++;
        depth--;
        start = depth <= 3 ? openedAt[depth]! : 0;
        continue; // the container itself ended
      }
      fail(kind === OBJ ? "Expected ',' or '}'" : "Expected ',' or ']'");
    }
  }
}
