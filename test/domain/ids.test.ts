import { describe, expect, it } from 'vitest';
import { looksLikeId, newId } from '../../src/domain/ids.js';

describe('ids', () => {
  it('are a prefix and 32 hex digits of a UUIDv7, in the order they were made, each with fresh random bits', () => {
    const ids = Array.from({ length: 5000 }, () => newId('lead'));
    for (const id of ids) expect(looksLikeId('lead', id)).toBe(true);
    // Version 7, RFC 9562 variant.
    expect(ids.every((id) => id[5 + 12] === '7' && '89ab'.includes(id[5 + 16]!))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // The last 32 bits are drawn anew for every id (the pool of randomness is refilled as it runs out).
    expect(new Set(ids.map((id) => id.slice(-8))).size).toBeGreaterThan(4990);
  });
});
