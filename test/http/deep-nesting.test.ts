import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { stringifyIteratively } from '../../src/domain/idempotency/stringify-iteratively.js';
import { leadPayloadHash } from '../../src/domain/intake/submit-lead-once.js';
import { INTAKE_MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/intake-body.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { storedRows } from './intake-helpers.js';

/** `{"name":"Ada","deep":[[[…]]]}` with the whole body nesting `levels` deep (the object is level 1). */
function nested(levels: number): string {
  return `{"name":"Ada","deep":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

describe('iterative stringify (finding 1: no recursion in the payload hash)', () => {
  it('writes exactly what JSON.stringify writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyIteratively(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
    expect(stringifyIteratively({ a: undefined, b: [undefined, () => 1], c: Number.NaN })).toBe(
      JSON.stringify({ a: undefined, b: [undefined, () => 1], c: Number.NaN }),
    );
  });

  it('hashes a body nested 200,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(() => JSON.stringify({ deep })).toThrow(RangeError);
    expect(leadPayloadHash({ name: 'Ada', deep })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('counts nesting outside strings only', () => {
    expect(nestsDeeperThan(Buffer.from(nested(64)), INTAKE_MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nested(65)), INTAKE_MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ notes: '['.repeat(500) + '\\"[[[' })), 2)).toBe(false);
  });
});

describeEachBackend("deeply nested JSON is refused in the contract's words (finding 1)", (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  for (const idempotencyKey of [undefined, 'deep-1']) {
    it(`answers 400 unreadable_body to 5,000 levels on the intake and the hosted form (${idempotencyKey ? 'with' : 'without'} an Idempotency-Key)`, async () => {
      world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
      const { source } = await world.seed();
      const app = await world.app();
      const headers = {
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      };
      for (const payload of [nested(5000), `{"name":"Ada","deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`]) {
        const api = await app.inject({ method: 'POST', url: `/api/intake/${source.token}`, headers, payload });
        expect(api.statusCode, api.body).toBe(400);
        expect(api.json()).toMatchObject({ code: 'unreadable_body', detail: expect.stringContaining('64 levels') });

        const form = await app.inject({ method: 'POST', url: `/f/${source.token}`, headers, payload });
        expect(form.statusCode, form.body).toBe(400);
        expect(form.headers['content-type']).toMatch(/^text\/html/);
        expect(form.body).toContain('The form could not be read');
      }
      expect(await storedRows(world, source.id)).toEqual({ leads: [], quarantine: [] });
    });
  }

  it('still takes a lead whose extra field nests up to 64 levels', async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    const { source } = await world.seed();
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${source.token}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-ok' },
      payload: nested(INTAKE_MAX_JSON_DEPTH),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { leads } = await storedRows(world, source.id);
    expect(leads).toHaveLength(1);
    expect(JSON.parse(leads[0]!.extra as string)).toEqual({ deep: JSON.stringify(JSON.parse(nested(64)).deep) });
  });
});
