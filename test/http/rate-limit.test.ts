import { afterEach, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { agedStamp } from '../helpers/form-stamp.js';
import { inWorkspace } from '../../src/domain/context.js';

/** `"intake";r=2;t=60` → { r: 2, t: 60 } */
function rateLimitFields(header: unknown): { name: string; r: number; t: number } {
  const match = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(String(header));
  if (!match) throw new Error(`not a RateLimit field: ${String(header)}`);
  return { name: match[1]!, r: Number(match[2]), t: Number(match[3]) };
}

describeEachBackend('rate limits', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  async function setUp(env: Record<string, string>) {
    world = await createWorld(backend, { env });
    const seeded = await world.seed();
    const app = await world.app();
    const intake = (token: string, ip: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: `/api/intake/${token}`,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', ...headers },
        payload: { name: `Lead from ${ip}` },
      });
    const scan = (key: string, ip = '10.0.0.1') =>
      app.inject({
        method: 'POST',
        url: '/api/scan/upload',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', 'x-scan-key': key },
        payload: '{"rooms":[{"name":"Kitchen"}]}',
      });
    const count = async (table: 'leads' | 'scans') =>
      Number(
        (
          await world.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { ...seeded, app, intake, scan, count };
  }

  function expect429(response: LightMyRequestResponse, policy: string) {
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ ok: false, status: 429, code: 'rate_limited' });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers['ratelimit-policy']).toBe(policy);
    expect(rateLimitFields(response.headers.ratelimit)).toEqual({
      name: policy.split(';')[0]!.slice(1, -1),
      r: 0,
      t: retryAfter,
    });
  }

  it('intake: 429 after INTAKE_RATE_LIMIT per IP per source, with Retry-After, RateLimit and CORS headers', async () => {
    const { intake, source, count } = await setUp({ INTAKE_RATE_LIMIT: '3' });
    for (const left of [2, 1, 0]) {
      const ok = await intake(source.token, '10.0.0.1');
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBe('"intake";q=3;w=60');
      const fields = rateLimitFields(ok.headers.ratelimit);
      expect(fields.r).toBe(left);
      expect(fields.t).toBeGreaterThanOrEqual(1);
      expect(fields.t).toBeLessThanOrEqual(60);
    }
    const writesBefore = world.store.writer.stats.writes;
    const refused = await intake(source.token, '10.0.0.1');
    expect429(refused, '"intake";q=3;w=60');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(String(refused.headers['access-control-expose-headers'])).toMatch(
      /Retry-After.*RateLimit.*RateLimit-Policy/,
    );
    // The refusal cost no database write and stored nothing.
    expect(world.store.writer.stats.writes).toBe(writesBefore);
    expect(await count('leads')).toBe(3);
  });

  it('intake: another IP, and the same IP on another source, have their own counters', async () => {
    const { intake, source, count, workspaceId, pipelineId } = await setUp({ INTAKE_RATE_LIMIT: '1' });
    const { createSource } = await import('../../src/domain/sources/create-source.js');
    const other = await createSource({
      ctx: inWorkspace(world.ctx, workspaceId),
      input: { pipelineId: pipelineId, name: 'Other' },
    });
    expect((await intake(source.token, '10.0.0.1')).statusCode).toBe(200);
    expect((await intake(source.token, '10.0.0.1')).statusCode).toBe(429);
    expect((await intake(source.token, '10.0.0.2')).statusCode).toBe(200);
    expect((await intake(other.token, '10.0.0.1')).statusCode).toBe(200);
    // The token's case does not make a new counter.
    expect((await intake(source.token.toUpperCase(), '10.0.0.1')).statusCode).toBe(429);
    // IPv6 clients are counted per /64: a client cannot rotate through its own prefix.
    expect((await intake(source.token, '2001:db8:1:2::1')).statusCode).toBe(200);
    expect((await intake(source.token, '2001:db8:1:2::99')).statusCode).toBe(429);
    expect(await count('leads')).toBe(4);
  });

  it("intake: the hosted form's no-script POST shares the counter of its source", async () => {
    const { app, intake, source, count } = await setUp({ INTAKE_RATE_LIMIT: '2' });
    expect((await intake(source.token, '10.0.0.1')).statusCode).toBe(200);
    const form = () =>
      app.inject({
        method: 'POST',
        url: `/f/${source.token}`,
        remoteAddress: '10.0.0.1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `name=Form+lead&formStamp=${encodeURIComponent(agedStamp(world, source.id))}`,
      });
    expect((await form()).statusCode).toBe(200);
    const refused = await form();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await count('leads')).toBe(2);
  });

  it('intake: a malformed token is refused before the limit is counted', async () => {
    const { intake, source } = await setUp({ INTAKE_RATE_LIMIT: '1' });
    const bad = await intake('not-a-token', '10.0.0.1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'malformed_token' });
    expect(bad.headers.ratelimit).toBeUndefined();
    expect((await intake(source.token, '10.0.0.1')).statusCode).toBe(200);
  });

  it('intake: TRUST_PROXY decides whether X-Forwarded-For names the client', async () => {
    const untrusted = await setUp({ INTAKE_RATE_LIMIT: '1' });
    expect(
      (await untrusted.intake(untrusted.source.token, '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode,
    ).toBe(200);
    // Without TRUST_PROXY a client cannot escape its counter by inventing a forwarded address.
    expect(
      (await untrusted.intake(untrusted.source.token, '10.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).statusCode,
    ).toBe(429);
    await world.close();

    const trusted = await setUp({ INTAKE_RATE_LIMIT: '1', TRUST_PROXY: '1' });
    expect(
      (await trusted.intake(trusted.source.token, '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode,
    ).toBe(200);
    expect(
      (await trusted.intake(trusted.source.token, '10.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).statusCode,
    ).toBe(200);
    expect(
      (await trusted.intake(trusted.source.token, '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode,
    ).toBe(429);
  });

  it('intake: INTAKE_RATE_LIMIT=0 turns the limit and its headers off', async () => {
    const { intake, source, count } = await setUp({ INTAKE_RATE_LIMIT: '0' });
    for (let i = 0; i < 5; i += 1) {
      const response = await intake(source.token, '10.0.0.1');
      expect(response.statusCode).toBe(200);
      expect(response.headers.ratelimit).toBeUndefined();
      expect(response.headers['ratelimit-policy']).toBeUndefined();
    }
    expect(await count('leads')).toBe(5);
  });

  it('scan: 429 after SCAN_RATE_LIMIT per upload key, whatever the IP; no CORS headers', async () => {
    const { scan, uploadKey, count } = await setUp({ SCAN_RATE_LIMIT: '2' });
    const first = await scan(uploadKey, '10.0.0.1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"scan";q=2;w=60');
    expect(rateLimitFields(first.headers.ratelimit).r).toBe(1);
    expect((await scan(uploadKey, '10.0.0.2')).statusCode).toBe(200);
    const writesBefore = world.store.writer.stats.writes;
    const refused = await scan(uploadKey, '10.0.0.3');
    expect429(refused, '"scan";q=2;w=60');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(world.store.writer.stats.writes).toBe(writesBefore);
    expect(await count('scans')).toBe(2);
  });

  it('scan: another workspace key is unaffected, and a wrong key is refused before counting', async () => {
    const { scan, uploadKey, count } = await setUp({ SCAN_RATE_LIMIT: '1' });
    const other = await world.seed('Other workspace');
    const wrong = await scan('lsk_this-is-not-a-real-key-but-long-enough-0000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers.ratelimit).toBeUndefined();
    expect((await scan(uploadKey)).statusCode).toBe(200);
    expect((await scan(uploadKey)).statusCode).toBe(429);
    expect((await scan(other.uploadKey)).statusCode).toBe(200);
    expect(await count('scans')).toBe(2);
  });

  it('scan: SCAN_RATE_LIMIT=0 turns the limit off', async () => {
    const { scan, uploadKey, count } = await setUp({ SCAN_RATE_LIMIT: '0' });
    for (let i = 0; i < 4; i += 1) {
      const response = await scan(uploadKey);
      expect(response.statusCode).toBe(200);
      expect(response.headers.ratelimit).toBeUndefined();
    }
    expect(await count('scans')).toBe(4);
  });
});
