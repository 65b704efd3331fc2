import { httpStatusOf } from '../../src/http/error-statuses.js';
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import { IDEMPOTENCY_TTL_MS, parseIdempotencyKey, requestHash } from '../../src/domain/idempotency/idempotency-key.js';
import { IN_FLIGHT_LEASE_MS } from '../../src/domain/idempotency/idempotency-store.js';
import { runIdempotent, type LeadKeyResult } from '../../src/domain/idempotency/run-idempotent.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { TestClock } from '../helpers/clock.js';

describe('parseIdempotencyKey', () => {
  it('accepts 1–255 printable ASCII characters and no header', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('x'.repeat(255))).toBe('x'.repeat(255));
    expect(parseIdempotencyKey(' ~!"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}')).toBe(
      ' ~!"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}',
    );
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(256)],
    ['a control character', 'abc\tdef'],
    ['DEL', 'abc\x7F'],
    ['non-ASCII', 'clé'],
  ])('refuses %s with 400 invalid_idempotency_key', (_label, value) => {
    const error = (() => {
      try {
        parseIdempotencyKey(value);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('invalid_idempotency_key');
    expect(httpStatusOf(error)).toBe(400);
  });

  it('refuses a repeated header', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(AppError);
  });
});

describe('requestHash', () => {
  it('depends on the body and the media type, not on its parameters', () => {
    const body = Buffer.from('{"name":"Ada"}');
    const json = requestHash({ contentType: 'application/json', body });
    expect(requestHash({ contentType: 'Application/JSON; charset=utf-8', body })).toBe(json);
    expect(requestHash({ contentType: 'text/plain', body })).not.toBe(json);
    expect(requestHash({ contentType: 'application/json', body: Buffer.from('{"name":"Ada" }') })).not.toBe(json);
  });
});

describeEachBackend('runIdempotent', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let runs: number;

  beforeEach(async () => {
    clock = new TestClock(Date.parse('2025-03-01T10:00:00.000Z'));
    world = await createWorld(backend, { clock });
    runs = 0;
  });
  afterEach(async () => {
    await world.close();
  });

  /** A request that stores one row and gives its id, like a lead submission. */
  function submit(key: string | null, payload = 'payload-1', scope = 'src:one', gate?: Promise<void>) {
    return runIdempotent({
      ctx: world.ctx,
      input: {
        scope,
        key,
        requestHash: requestHash({ contentType: 'application/json', body: payload }),
        kind: 'lead',
        run: async ({ record }) => {
          runs += 1;
          await gate;
          const id = `row_${crypto.randomUUID()}`;
          return world.store.writer.write(async (trx) => {
            await trx.insertInto('app_meta').values({ key: id, value: payload }).execute();
            const result: LeadKeyResult = { kind: 'lead', leadId: id };
            await record(trx, result);
            return result;
          });
        },
      },
    });
  }

  const storedRows = async () =>
    (await world.store.db.selectFrom('app_meta').select('key').where('key', 'like', 'row_%').execute()).length;
  const keyRows = () => world.store.db.selectFrom('idempotency_keys').selectAll().execute();

  async function refusal(promise: Promise<unknown>): Promise<AppError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('without a key, runs every time', async () => {
    await submit(null);
    await submit(null);
    expect(runs).toBe(2);
    expect(await storedRows()).toBe(2);
    expect(await keyRows()).toHaveLength(0);
  });

  it('replays the first answer for a sequential repeat and stores nothing new', async () => {
    const first = await submit('k1');
    const second = await submit('k1');
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ result: first.result, replayed: true });
    expect(runs).toBe(1);
    expect(await storedRows()).toBe(1);
    const [row] = await keyRows();
    // The record keeps the domain result, not an HTTP answer.
    expect(row).toMatchObject({ scope: 'src:one', key: 'k1', state: 'done', response_status: null });
    expect(JSON.parse(row!.response_body!)).toEqual(first.result);
    expect(row!.expires_at).toBe(new Date(clock.now().getTime() + IDEMPOTENCY_TTL_MS).toISOString());
  });

  it('answers 422 idempotency_key_reused for the same key with a different payload', async () => {
    await submit('k1', 'payload-1');
    const error = await refusal(submit('k1', 'payload-2'));
    expect(error.code).toBe('idempotency_key_reused');
    expect(httpStatusOf(error)).toBe(422);
    expect(runs).toBe(1);
    expect(await storedRows()).toBe(1);
  });

  it('gives concurrent repeats in one process the one answer, storing once', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const pending = Array.from({ length: 8 }, () => submit('k1', 'payload-1', 'src:one', gate));
    setTimeout(open, 20);
    const outcomes = await Promise.all(pending);
    expect(runs).toBe(1);
    expect(await storedRows()).toBe(1);
    expect(new Set(outcomes.map((o) => JSON.stringify(o.result))).size).toBe(1);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
  });

  it('answers 409 idempotency_in_flight while another instance holds the key', async () => {
    const hash = requestHash({ contentType: 'application/json', body: 'payload-1' });
    await world.store.writer.write((trx) =>
      trx
        .insertInto('idempotency_keys')
        .values({
          scope: 'src:one',
          key: 'k1',
          request_hash: hash,
          state: 'in_flight',
          response_status: null,
          response_body: null,
          created_at: clock.now().toISOString(),
          expires_at: new Date(clock.now().getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        })
        .execute(),
    );
    const error = await refusal(submit('k1'));
    expect(error.code).toBe('idempotency_in_flight');
    expect(httpStatusOf(error)).toBe(409);
    expect(error.data).toEqual({ retryAfterSeconds: 1 });
    expect(runs).toBe(0);
    // A holder that died is taken over once its lease is over.
    clock.advance(IN_FLIGHT_LEASE_MS + 1);
    const outcome = await submit('k1');
    expect(outcome.replayed).toBe(false);
    expect(await storedRows()).toBe(1);
  });

  it('frees the key when the request fails, so a retry succeeds', async () => {
    const failing = runIdempotent<LeadKeyResult>({
      ctx: world.ctx,
      input: {
        scope: 'src:one',
        key: 'k1',
        requestHash: requestHash({ contentType: 'application/json', body: 'payload-1' }),
        kind: 'lead',
        run: () => Promise.reject(new AppError('missing_contact', 'Give at least one of name, phone or email')),
      },
    });
    expect((await refusal(failing)).code).toBe('missing_contact');
    expect(await keyRows()).toHaveLength(0);
    const retry = await submit('k1');
    expect(retry.replayed).toBe(false);
    expect(await storedRows()).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const first = await submit('k1');
    clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expect((await submit('k1')).replayed).toBe(true);
    clock.advance(2);
    const later = await submit('k1');
    expect(later.replayed).toBe(false);
    expect(later.result).not.toEqual(first.result);
    expect(runs).toBe(2);
    expect(await storedRows()).toBe(2);
    const rows = await keyRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.response_body!)).toEqual(later.result);
  });

  it('scopes keys: the same key in two scopes is two requests', async () => {
    const a = await submit('k1', 'payload-1', 'src:one');
    const b = await submit('k1', 'payload-1', 'src:two');
    expect(a.replayed || b.replayed).toBe(false);
    expect(a.result).not.toEqual(b.result);
    expect(await storedRows()).toBe(2);
  });

  it('cleans up expired keys now and then', async () => {
    await submit('old');
    clock.advance(IDEMPOTENCY_TTL_MS + 11 * 60 * 1000);
    await submit('new');
    // The cleanup runs off the request's path; wait for it rather than for a fixed time.
    await expect.poll(async () => (await keyRows()).map((r) => r.key)).toEqual(['new']);
  });
});
