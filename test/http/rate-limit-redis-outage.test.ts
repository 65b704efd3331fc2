import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loggerOptions } from '../../src/logging.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { freePort, systemTool } from '../deploy/tools.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

const redisServer = systemTool('redis-server', 'apt-get install redis-server');
const LIMIT = 4;

/** A redis-server of the test's own on `port`, nothing saved; resolves once it answers. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    redisServer.path!,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i += 1) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** An app with the production logger options writing its lines into memory. */
async function loggedApp(world: TestWorld, store: Database | undefined, prefix: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const options = loggerOptions({ ...world.config, logLevel: 'info', logFormat: 'json' }) as Record<string, unknown>;
  const ctx = store ? createDomainContext({ config: world.config, store, appSecret: world.appSecret }) : world.ctx;
  const app = await buildApp(ctx, { logger: { ...options, stream }, rateLimitKeyPrefix: prefix });
  return { app, lines };
}

/**
 * Rate limits while Redis is away (docs/configuration.md, "Rate limits"): each instance falls back to its own
 * counters, says so once, and goes back to the shared counters when Redis answers again. Two instances on one
 * database and a redis-server this test starts and stops itself.
 */
describe.skipIf(redisServer.skipReason !== undefined)('rate limits across a Redis outage', () => {
  let port: number;
  let redis: ChildProcess;
  let world: TestWorld;
  let second: Database;
  let seeded: Seeded;
  let instances: Array<{ app: App; lines: Array<Record<string, unknown>> }>;
  let prefix: string;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    prefix = `leadscan-test:${crypto.randomUUID()}:`;
    world = await createWorld('sqlite', {
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, INTAKE_RATE_LIMIT: String(LIMIT) },
    });
    seeded = await world.seed();
    second = openDatabase(world.config.database);
    instances = [await loggedApp(world, undefined, prefix), await loggedApp(world, second, prefix)];
  }, 60_000);
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.app.close();
    await second?.close();
    await world?.close();
    if (redis) await stopRedis(redis);
  });

  const post = (instance: number, ip: string) =>
    instances[instance]!.app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: { name: `Lead from ${ip}` },
    });
  /** The statuses of posts from one client address, through the instances named in turn. */
  const statuses = async (ip: string, through: number[]) => {
    const out: number[] = [];
    for (const instance of through) out.push((await post(instance, ip)).statusCode);
    return out;
  };
  const said = (instance: number, pattern: RegExp) =>
    instances[instance]!.lines.filter((line) => pattern.test(String(line.msg)));

  it('counts one limit across both instances while Redis answers', async () => {
    expect(await statuses('10.9.0.1', [0, 1, 0, 1, 0, 1])).toEqual([200, 200, 200, 200, 429, 429]);
  }, 60_000);

  it('with Redis stopped, each instance counts on its own (never unlimited) and says so once', async () => {
    await stopRedis(redis);
    expect(await statuses('10.9.0.2', [0, 0, 0, 0, 0, 0])).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await statuses('10.9.0.2', [1, 1, 1, 1, 1])).toEqual([200, 200, 200, 200, 429]);
    for (const instance of [0, 1]) {
      const warned = said(instance, /Redis .*unreachable/i);
      expect(warned).toHaveLength(1);
      expect(warned[0]!.level).toBe(40);
      // No error-level noise for every request that fell back.
      expect(instances[instance]!.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    }
  }, 60_000);

  it('when Redis answers again, both instances go back to the shared counters and say so', async () => {
    redis = await startRedis(port);
    const client = new Redis(`redis://127.0.0.1:${port}`);
    try {
      // Each instance reconnects by itself; a counter of its in Redis shows it is back.
      for (const instance of [0, 1]) {
        await expect
          .poll(
            async () => {
              await post(instance, `10.9.${instance + 1}.${crypto.randomInt(1, 250)}`);
              return (await client.keys(`${prefix}intake:*:10.9.${instance + 1}.*`)).length;
            },
            { timeout: 15_000, interval: 200 },
          )
          .toBeGreaterThan(0);
        expect(said(instance, /Redis .*is back: /i)).toHaveLength(1);
      }
      expect(await statuses('10.9.0.3', [0, 1, 0, 1, 1])).toEqual([200, 200, 200, 200, 429]);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
