import crypto from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { createDomainContext } from '../../src/runtime.js';

/**
 * Redis: TEST_REDIS_URL when set (CI sets it, and then Redis must answer), else a local redis://127.0.0.1:6379 if
 * one answers; otherwise these suites are skipped and say so.
 */
const explicitRedis = process.env.TEST_REDIS_URL?.trim() || undefined;
const redisUrl = explicitRedis ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname || '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

const redisUp = await redisAnswers(redisUrl);
if (!redisUp && explicitRedis) throw new Error(`TEST_REDIS_URL=${explicitRedis} does not answer`);
if (!redisUp) {
  process.stdout.write(
    '\n[leadscan] Redis rate-limit suites SKIPPED: no Redis at redis://127.0.0.1:6379 and TEST_REDIS_URL is not set.\n' +
      '  Start Redis or set TEST_REDIS_URL=redis://HOST:PORT to run them (bash .ci/run does).\n\n',
  );
}

describe.skipIf(!redisUp)('rate limits shared through Redis', () => {
  describeEachBackend('two instances', (backend) => {
    let world: TestWorld;
    let second: { app: App; store: Database } | undefined;
    let redis: Redis;
    let prefix: string;

    afterEach(async () => {
      await second?.app.close();
      await second?.store.close();
      second = undefined;
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await world?.close();
    });

    /** Two apps (each with its own database connection, as two processes would have) sharing one Redis. */
    async function twoInstances(env: Record<string, string>) {
      prefix = `leadscan-test:${crypto.randomUUID()}:`;
      redis = new Redis(redisUrl);
      world = await createWorld(backend, { env: { REDIS_URL: redisUrl, ...env } });
      const seeded = await world.seed();
      const first = await buildApp(world.ctx, {
        logger: false,
        rateLimitKeyPrefix: prefix,
      });
      const store = openDatabase(world.config.database);
      second = {
        store,
        app: await buildApp(createDomainContext({ config: world.config, store, appSecret: world.appSecret }), {
          logger: false,
          rateLimitKeyPrefix: prefix,
        }),
      };
      const apps = [first, second.app];
      const firstClose = () => first.close();
      return { ...seeded, apps, firstClose };
    }

    it('counts intake requests of both instances against one limit, per IP', async () => {
      const { apps, source, firstClose } = await twoInstances({ INTAKE_RATE_LIMIT: '4' });
      try {
        const post = (i: number, ip: string) =>
          apps[i % 2]!.inject({
            method: 'POST',
            url: `/api/intake/${source.token}`,
            remoteAddress: ip,
            headers: { 'content-type': 'application/json' },
            payload: { name: `Lead ${i}` },
          });
        const remaining: string[] = [];
        for (let i = 0; i < 4; i += 1) {
          const response = await post(i, '10.1.0.1');
          expect(response.statusCode).toBe(200);
          remaining.push(String(response.headers.ratelimit).split(';')[1]!);
        }
        expect(remaining).toEqual(['r=3', 'r=2', 'r=1', 'r=0']);
        for (const i of [4, 5]) {
          const refused = await post(i, '10.1.0.1');
          expect(refused.statusCode).toBe(429);
          expect(refused.json()).toMatchObject({ code: 'rate_limited' });
          expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
        expect((await post(6, '10.1.0.2')).statusCode).toBe(200);
        const leads = await world.store.db.selectFrom('leads').select('id').execute();
        expect(leads).toHaveLength(5);
        // The counters are in Redis under this test's prefix.
        const keys = await redis.keys(`${prefix}*`);
        expect(keys.sort()).toEqual(
          [`${prefix}intake:${source.token}:10.1.0.1`, `${prefix}intake:${source.token}:10.1.0.2`].sort(),
        );
      } finally {
        await firstClose();
      }
    });

    it('counts scan uploads of both instances against one limit, naming the key only by its hash', async () => {
      const { apps, uploadKey, firstClose } = await twoInstances({ SCAN_RATE_LIMIT: '3' });
      try {
        const upload = (i: number) =>
          apps[i % 2]!.inject({
            method: 'POST',
            url: '/api/scan/upload',
            headers: { 'content-type': 'application/json', 'x-scan-key': uploadKey },
            payload: '{"rooms":[{"name":"Hall"}]}',
          });
        for (let i = 0; i < 3; i += 1) expect((await upload(i)).statusCode).toBe(200);
        expect((await upload(3)).statusCode).toBe(429);
        expect((await upload(4)).statusCode).toBe(429);
        const scans = await world.store.db.selectFrom('scans').select('id').execute();
        expect(scans).toHaveLength(3);
        const keys = await redis.keys(`${prefix}*`);
        expect(keys).toEqual([`${prefix}scan:${crypto.createHash('sha256').update(uploadKey).digest('hex')}`]);
        expect(keys.join()).not.toContain(uploadKey);
      } finally {
        await firstClose();
      }
    });
  });
});

describe('rate limits when Redis is down', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
  });

  it("falls back to the instance's own counters (never unlimited), and says so once", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    world = await createWorld('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${port}`, INTAKE_RATE_LIMIT: '2' } });
    const { source } = await world.seed();
    const lines: string[] = [];
    const app = await buildApp(world.ctx, {
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    });
    onTestFinished(() => app.close());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/intake/${source.token}`,
        headers: { 'content-type': 'application/json' },
        payload: { name: `Lead ${i}` },
      });
      statuses.push(response.statusCode);
      expect(response.headers['ratelimit-policy']).toBe('"intake";q=2;w=60');
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    const leads = await world.store.db.selectFrom('leads').select('id').execute();
    expect(leads).toHaveLength(2);
    expect(lines.filter((line) => /Redis for rate limits is unreachable/.test(line))).toHaveLength(1);
  });
});
