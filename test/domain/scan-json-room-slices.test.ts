import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, scanRooms, type RoomsScan } from '../../src/domain/scans/json-room-slices.js';
import { jsonValueText, uploadBodyText } from '../fixtures/json-text-arbitrary.js';
import { generateScanExchange, toJsonText } from '../fixtures/scan-exchange.js';

/** What JSON.parse says a body means: the oracle the scanner is checked against. */
function oracle(body: Buffer): { valid: false } | { valid: true; value: unknown } {
  if (!isUtf8(body)) return { valid: false };
  let text = body.toString('utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    return { valid: true, value: JSON.parse(text) as unknown };
  } catch {
    return { valid: false };
  }
}

function scan(body: Buffer, keep = 1000): RoomsScan | 'invalid' {
  try {
    return scanRooms(body, keep);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return 'invalid';
    throw error;
  }
}

/** Canonical text of a parsed value: equal values (own `__proto__` keys included, -0 as 0) give equal text. */
const canon = (value: unknown) => JSON.stringify(value);

/** Asserts the scanner agrees with JSON.parse on validity, shape, room count, each room's bytes and name. */
function expectAgreement(body: Buffer): void {
  const expected = oracle(body);
  const actual = scan(body);
  if (!expected.valid) {
    expect(actual).toBe('invalid');
    return;
  }
  expect(actual).not.toBe('invalid');
  const value = expected.value;
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject) {
    expect(actual).toEqual({ kind: 'not_object' });
    return;
  }
  const rooms = Object.hasOwn(value, 'rooms') ? (value as { rooms: unknown }).rooms : undefined;
  if (!Array.isArray(rooms)) {
    expect(actual).toEqual({ kind: 'no_rooms_array' });
    return;
  }
  if (actual === 'invalid' || actual.kind !== 'rooms') throw new Error(`expected rooms, got ${JSON.stringify(actual)}`);
  expect(actual.count).toBe(rooms.length);
  actual.rooms.forEach((slice, i) => {
    const room: unknown = rooms[i];
    expect(canon(JSON.parse(body.toString('utf8', slice.start, slice.end)))).toBe(canon(room));
    const roomIsObject = typeof room === 'object' && room !== null && !Array.isArray(room);
    expect(slice.isObject).toBe(roomIsObject);
    const name = roomIsObject && Object.hasOwn(room, 'name') ? (room as { name: unknown }).name : undefined;
    expect(slice.name).toBe(typeof name === 'string' ? name : undefined);
  });
}

describe('scanRooms agrees with JSON.parse', () => {
  it('on upload bodies with duplicate keys, escaped keys, __proto__, odd numbers and whitespace', () => {
    fc.assert(
      fc.property(uploadBodyText({ valid: true }), (text) => expectAgreement(Buffer.from(text))),
      { numRuns: 1500 },
    );
  });

  it('on arbitrary object bodies, including ones whose rooms are missing, not an array, or hold non-objects', () => {
    fc.assert(
      fc.property(uploadBodyText({ valid: false }), (text) => expectAgreement(Buffer.from(text))),
      { numRuns: 1500 },
    );
  });

  it('on any JSON value as the whole body', () => {
    fc.assert(
      fc.property(jsonValueText, (text) => expectAgreement(Buffer.from(text))),
      { numRuns: 500 },
    );
  });

  it('on mutated bodies (a byte deleted, inserted or replaced): invalid exactly when JSON.parse refuses', () => {
    const mutation = fc.tuple(
      uploadBodyText({ valid: true }),
      fc.nat(),
      fc.constantFrom('delete', 'insert', 'replace'),
      fc.constantFrom(...'{}[],:"\\ 0123456789.eE+-tfnul\u00e9\u0001\t'.split('')),
    );
    fc.assert(
      fc.property(mutation, ([text, at, op, ch]) => {
        const chars = Array.from(text);
        const i = at % (chars.length + 1);
        if (op === 'delete') chars.splice(i, 1);
        else if (op === 'insert') chars.splice(i, 0, ch);
        else chars.splice(i, 1, ch);
        expectAgreement(Buffer.from(chars.join('')));
      }),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary bytes and strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => expectAgreement(Buffer.from(bytes))),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => expectAgreement(Buffer.from(s))),
      { numRuns: 1000 },
    );
  });

  it('on generated RoomPlan-style exports written compact, pretty and varied', () => {
    for (const seed of [1, 2, 3]) {
      const value = generateScanExchange({ seed, rooms: 4, meshBytes: 3000, extra: { device: 'iPhone15,2' } });
      for (const style of ['compact', 'pretty', 'varied'] as const) {
        expectAgreement(Buffer.from(toJsonText(value, { style, seed })));
      }
    }
  });
});

describe('scanRooms edge cases', () => {
  const rooms = (text: string) => {
    const result = scan(Buffer.from(text));
    if (result === 'invalid' || result.kind !== 'rooms') throw new Error(`not rooms: ${JSON.stringify(result)}`);
    return result;
  };
  const slices = (text: string) => rooms(text).rooms.map((r) => text.slice(r.start, r.end));

  it('keeps number spellings and escapes in the slices', () => {
    const text = '{"rooms":[{"w":1.10,"z":-0,"e":1e3,"big":12345678901234567890,"s":"\\u00e9\\n"}]}';
    expect(slices(text)).toEqual(['{"w":1.10,"z":-0,"e":1e3,"big":12345678901234567890,"s":"\\u00e9\\n"}']);
  });

  it('the last top-level rooms wins, whatever its spelling; nested "rooms" keys do not count', () => {
    expect(slices('{"rooms":[{"a":1}],"r\\u006foms":[{"b":2},{"c":3}]}')).toEqual(['{"b":2}', '{"c":3}']);
    expect(scan(Buffer.from('{"rooms":[{}],"rooms":{"x":[]}}'))).toEqual({ kind: 'no_rooms_array' });
    expect(scan(Buffer.from('{"x":{"rooms":[{}]}}'))).toEqual({ kind: 'no_rooms_array' });
    expect(scan(Buffer.from('[{"rooms":[]}]'))).toEqual({ kind: 'not_object' });
  });

  it('names: the last string name, escaped spellings decoded, non-strings ignored, nested names ignored', () => {
    const result = rooms(
      '{"rooms":[{"name":"A","name":"B"},{"n\\u0061me":"K\\u00fcche"},{"name":"A","name":5},{"x":{"name":"no"}},' +
        '{"__proto__":{"name":"polluted"}},{"name":"寝室"}]}',
    );
    expect(result.rooms.map((r) => r.name)).toEqual(['B', 'Küche', undefined, undefined, undefined, '寝室']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('records only the first `keep` rooms but counts them all', () => {
    const text = `{"rooms":[${Array.from({ length: 2000 }, () => '{}').join(',')}]}`;
    const result = scanRooms(Buffer.from(text), 500);
    expect(result).toMatchObject({ kind: 'rooms', count: 2000 });
    expect(result.kind === 'rooms' && result.rooms.length).toBe(500);
  });

  it('handles very deep nesting without recursion', () => {
    const depth = 200_000;
    const text = `{"rooms":[{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
    expect(rooms(text).count).toBe(1);
    expect(scan(Buffer.from(`{"rooms":[{"deep":${'['.repeat(depth)}}]}`))).toBe('invalid');
  });

  it('ignores a leading UTF-8 BOM (RFC 8259 §8.1) and refuses one anywhere else', () => {
    const text = '\uFEFF{"rooms":[{"name":"A"}]}';
    const body = Buffer.from(text);
    const result = scan(body);
    expect(
      result !== 'invalid' &&
        result.kind === 'rooms' &&
        body.toString('utf8', result.rooms[0]!.start, result.rooms[0]!.end),
    ).toBe('{"name":"A"}');
    expect(scan(Buffer.from('{"rooms":[\uFEFF{}]}'))).toBe('invalid');
    expect(scan(Buffer.from('\uFEFF'))).toBe('invalid');
  });

  it.each([
    ['empty', ''],
    ['whitespace only', ' \n'],
    ['leading zero', '{"rooms":[{"a":01}]}'],
    ['bare fraction', '{"rooms":[{"a":.5}]}'],
    ['trailing dot', '{"rooms":[{"a":1.}]}'],
    ['plus sign', '{"rooms":[{"a":+1}]}'],
    ['NaN', '{"rooms":[{"a":NaN}]}'],
    ['trailing comma', '{"rooms":[{"a":1},]}'],
    ['single quotes', "{'rooms':[]}"],
    ['comment', '{"rooms":[]/* c */}'],
    ['raw control character', '{"rooms":[{"a":"x\u0001"}]}'],
    ['bad escape', '{"rooms":[{"a":"\\x41"}]}'],
    ['short \\u escape', '{"rooms":[{"a":"\\u12"}]}'],
    ['two values', '{"rooms":[]} {}'],
    ['unclosed', '{"rooms":[{}'],
  ])('refuses %s', (_label, text) => {
    expect(scan(Buffer.from(text))).toBe('invalid');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('finds a raw control byte anywhere in a long string (the word-at-a-time path), at every alignment', () => {
    const head = '{"rooms":[{"name":"Hall","mesh":"';
    for (const length of [257, 300, 1031]) {
      for (let at = 0; at < length; at += at < 8 || at > length - 9 ? 1 : 97) {
        for (const control of [0x00, 0x01, 0x0a, 0x1f]) {
          const mesh = Buffer.alloc(length, 'Q');
          mesh[at] = control;
          // A prefix of 0 to 3 bytes shifts the string against the 4-byte words.
          for (const shift of [0, 1, 2, 3]) {
            const body = Buffer.concat([Buffer.from(' '.repeat(shift) + head), mesh, Buffer.from('"}]}')]);
            expect(() => scanRooms(body, 10)).toThrow(
              new JsonSyntaxError(shift + head.length + at, 'Control character in string'),
            );
          }
        }
      }
    }
    // Bytes of 0x80 and up (UTF-8 letters) and 0x20 itself are never taken for control bytes.
    const plain = Buffer.concat([Buffer.from(head), Buffer.from(' é€😀 '.repeat(200)), Buffer.from('"}]}')]);
    expect(scan(plain)).toMatchObject({ kind: 'rooms', count: 1 });
  });

  it.each([
    ['invalid byte', [0xff]],
    ['overlong NUL', [0xc0, 0x80]],
    ['UTF-16 surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
    ['truncated sequence', [0xe2, 0x82]],
  ])('refuses invalid UTF-8 (%s) inside a string', (_label, bytes) => {
    const body = Buffer.concat([Buffer.from('{"rooms":[{"name":"'), Buffer.from(bytes), Buffer.from('"}]}')]);
    expect(scan(body)).toBe('invalid');
  });

  it('accepts a lone surrogate written as an escape, as JSON.parse does', () => {
    expect(rooms('{"rooms":[{"name":"\\ud800"}]}').rooms[0]!.name).toBe('\ud800');
  });
});
