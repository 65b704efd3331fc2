import path from 'node:path';

/**
 * The whole environment, parsed once at start-up (CONTRACT §6) and handed down.
 * Nothing else in the service reads `process.env`.
 */
export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

export type BotCheckProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

export interface Config {
  database: DatabaseConfig;
  host: string;
  port: number;
  publicBaseUrl: string;
  /** From APP_SECRET; undefined means "generate one and keep it in the data directory" (CONTRACT §5). */
  appSecret: string | undefined;
  /** Where a generated APP_SECRET is kept. */
  dataDir: string;
  intakeRateLimit: number;
  scanRateLimit: number;
  scanMaxBytes: number;
  /** Fastify's trustProxy: false, true (trust X-Forwarded-For), or the trusted proxy addresses/CIDRs. */
  trustProxy: boolean | string;
  botCheckVerifyUrls: Record<BotCheckProvider, string>;
  botCheckTimeoutMs: number;
  redisUrl: string | undefined;
  logLevel: string;
  /** Worker processes for `serve` (PostgreSQL only). */
  workers: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${raw}`);
  }
  return value;
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

export function parseDatabaseUrl(raw: string | undefined): DatabaseConfig {
  const value = raw?.trim() || './data/leadscan.sqlite';
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('DATABASE_URL', 'must be postgres://, postgresql://, sqlite:PATH or a file path');
  }
  const file = value.startsWith('sqlite:') ? value.slice('sqlite:'.length) : value;
  if (file === '') throw new ConfigError('DATABASE_URL', 'names an empty SQLite path');
  return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) };
}

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim();
  if (!value || ['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  if (['1', 'true', 'on', 'yes'].includes(value.toLowerCase())) return true;
  // A comma-separated list of trusted proxy addresses or CIDR ranges.
  if (/^[0-9a-fA-F.:/, ]+$/.test(value)) return value;
  throw new ConfigError('TRUST_PROXY', `must be true/false or a comma-separated list of proxy addresses, got "${value}"`);
}

export function loadConfig(env: Env = process.env): Config {
  const database = parseDatabaseUrl(env.DATABASE_URL);
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const appSecret = env.APP_SECRET?.trim() || undefined;
  if (appSecret !== undefined && appSecret.length < 32) {
    throw new ConfigError('APP_SECRET', 'must be at least 32 characters (use `openssl rand -base64 48`)');
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  }
  return {
    database,
    host,
    port,
    publicBaseUrl: httpUrl(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`),
    appSecret,
    dataDir:
      env.DATA_DIR?.trim() ||
      (database.kind === 'sqlite' && database.path !== ':memory:' ? path.dirname(database.path) : path.resolve('data')),
    intakeRateLimit: integer(env, 'INTAKE_RATE_LIMIT', 30, 0, 1_000_000),
    scanRateLimit: integer(env, 'SCAN_RATE_LIMIT', 120, 0, 1_000_000),
    scanMaxBytes: integer(env, 'SCAN_MAX_BYTES', 33_554_432, 1024, 1024 * 1024 * 1024),
    trustProxy: trustProxy(env.TRUST_PROXY),
    botCheckVerifyUrls: {
      turnstile: httpUrl(env, 'TURNSTILE_VERIFY_URL', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'),
      hcaptcha: httpUrl(env, 'HCAPTCHA_VERIFY_URL', 'https://api.hcaptcha.com/siteverify'),
      recaptcha: httpUrl(env, 'RECAPTCHA_VERIFY_URL', 'https://www.google.com/recaptcha/api/siteverify'),
    },
    botCheckTimeoutMs: integer(env, 'BOT_CHECK_TIMEOUT_MS', 5000, 100, 60_000),
    redisUrl,
    logLevel,
    workers: integer(env, 'WORKERS', 1, 1, 64),
  };
}
