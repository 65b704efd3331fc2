import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import type { IntakeToken } from '../domain/intake-token.js';

/**
 * Rate limits (docs/configuration.md): per client IP per lead source for intake, per upload key for scans, in fixed
 * one-minute windows. Counters live in Redis when REDIS_URL is set (shared by every instance; while Redis is away,
 * each instance's own), else in memory.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-10 (the structured-field form since -08), on every limited
 * response:
 *   RateLimit-Policy: "intake";q=30;w=60      quota q per window w seconds
 *   RateLimit: "intake";r=12;t=42             r requests left, window resets in t seconds
 * and on a 429 also Retry-After (seconds).
 */
export interface RateLimits {
  /** The intake route's rate-limit spot: after the token shape check, before the source lookup. */
  intake(request: FastifyRequest, reply: FastifyReply, token: IntakeToken): Promise<void>;
  /** The scan route's rate-limit spot: after the key header check, before the body is read. */
  scan(request: FastifyRequest, reply: FastifyReply, uploadKey: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitOptions {
  /** Prefix of the Redis keys; tests give each test its own. */
  redisKeyPrefix?: string;
}

// The plugin's own counter stores (CommonJS, untyped): wrapped below so our keys are used as they are.
const requireCjs = createRequire(import.meta.url);
const RedisStore = requireCjs('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  prefix: string,
) => CounterStore;
const LocalStore = requireCjs('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => CounterStore;

/** The request's counter key, handed to the plugin's key generator. */
const counterKeys = new WeakMap<FastifyRequest, string>();

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface CounterStore {
  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void;
}

/**
 * The plugin's store, wrapped so keys are exactly ours (the plugin's own child stores would prefix the route URL)
 * and so a Redis that fails never lets requests through unlimited: while it fails, this instance counts in its own
 * memory (`fallback`), and the shared counters are used again as soon as Redis answers (docs/configuration.md,
 * "Rate limits"). Without Redis there is no fallback: the memory store is the store.
 */
function storeClass(inner: CounterStore, fallback: CounterStore | undefined, outage: RedisOutage | undefined) {
  return class FallbackStore {
    incr(key: string, callback: IncrCallback, timeWindow: number, max: number) {
      inner.incr(
        key,
        (error, result) => {
          if (!error || !fallback) {
            if (!error) outage?.answered();
            callback(error, result);
            return;
          }
          outage?.failed(error);
          fallback.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }
    child() {
      return this;
    }
  };
}

/**
 * Whether Redis is away, said once each way: a warning when it stops answering (the counters are then this
 * instance's own), a line when it answers again (shared again). Not a line per request.
 */
class RedisOutage {
  private down = false;
  constructor(private readonly log: FastifyBaseLogger) {}

  failed(error: Error): void {
    if (this.down) return;
    this.down = true;
    this.log.warn(
      { err: { message: error.message } },
      'Redis for rate limits is unreachable: each instance counts on its own until it is back',
    );
  }

  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.log.info('Redis for rate limits is back: the rate limits are shared again');
  }
}

async function connectRedis(url: string, outage: RedisOutage): Promise<Redis> {
  const redis = new Redis(url, {
    // Fail fast: with Redis away a command fails at once instead of queueing, and the instance's own counter answers.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
  });
  redis.on('error', (error: Error) => outage.failed(error));
  // Wait briefly so the first requests after start are counted; a Redis that is down does not stop start-up.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    redis.once('ready', done);
    redis.once('error', done);
  });
  return redis;
}

function policyHeaders(reply: FastifyReply, name: string, quota: number, remaining: number, resetSeconds: number) {
  reply.header('RateLimit-Policy', `"${name}";q=${quota};w=${RATE_LIMIT_WINDOW_MS / 1000}`);
  reply.header('RateLimit', `"${name}";r=${remaining};t=${resetSeconds}`);
}

/** Registers @fastify/rate-limit (no global limit) and decorates the app with the two limit spots. */
export async function registerRateLimits(app: FastifyInstance, config: Config, options: RateLimitOptions = {}) {
  let inner: CounterStore;
  let fallback: CounterStore | undefined;
  let outage: RedisOutage | undefined;
  if (config.redisUrl) {
    outage = new RedisOutage(app.log);
    const redis = await connectRedis(config.redisUrl, outage);
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    inner = new RedisStore(false, false, redis, options.redisKeyPrefix ?? 'leadscan:rl:');
    fallback = new LocalStore(false, false, 50_000);
  } else {
    if (config.database.kind === 'postgres' && (config.intakeRateLimit > 0 || config.scanRateLimit > 0)) {
      app.log.warn('REDIS_URL is not set: rate limits are counted per instance; set REDIS_URL to share them');
    }
    inner = new LocalStore(false, false, 50_000);
  }

  await app.register(rateLimit, {
    global: false,
    store: storeClass(inner, fallback, outage),
    skipOnError: true,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => counterKeys.get(request) ?? request.ip,
  });

  const limiter = (name: 'intake' | 'scan', max: number) => {
    // Off: not even the counter's key is worked out.
    if (max <= 0) return async () => {};
    const check = app.createRateLimit({ max, timeWindow: RATE_LIMIT_WINDOW_MS });
    return async (request: FastifyRequest, reply: FastifyReply, keyOf: () => string) => {
      counterKeys.set(request, keyOf());
      const result = await check(request);
      if (result.isAllowed) return;
      // No count came back (the store failed and we fail open): no headers rather than made-up ones.
      if (result.remaining === result.max && result.ttl === 0) return;
      const resetSeconds = Math.max(1, result.ttlInSeconds);
      policyHeaders(reply, name, max, result.remaining, resetSeconds);
      if (result.isExceeded) {
        throw new AppError(
          'rate_limited',
          `Too many requests: at most ${max} per minute ${
            name === 'intake' ? 'per client for this form' : 'per upload key'
          }; retry after ${resetSeconds} s`,
          undefined,
          { retryAfterSeconds: resetSeconds },
        );
      }
    };
  };

  const intake = limiter('intake', config.intakeRateLimit);
  const scan = limiter('scan', config.scanRateLimit);
  app.decorate('rateLimits', {
    intake: (request, reply, token) => intake(request, reply, () => `intake:${token}:${normalizeIP(request.ip)}`),
    // The key itself is a secret: only its hash names the counter (in Redis, in memory, in any dump).
    scan: (request, reply, uploadKey) =>
      scan(request, reply, () => `scan:${crypto.createHash('sha256').update(uploadKey).digest('hex')}`),
  } satisfies RateLimits);
}
