import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';

/**
 * The whole environment, parsed once at start-up (docs/configuration.md) and handed down.
 * Nothing else in the service reads `process.env`.
 */
export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export type BotCheckProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

export interface Config {
  database: DatabaseConfig;
  host: string;
  port: number;
  publicBaseUrl: string;
  /**
   * Whether PUBLIC_BASE_URL was set; when not, the CLI prints links with the base URL the server last used
   * (docs/cli.md).
   */
  publicBaseUrlSet: boolean;
  /** From APP_SECRET; undefined means "generate one and keep it in the data directory" (docs/api.md). */
  appSecret: string | undefined;
  /** Where a generated APP_SECRET is kept. */
  dataDir: string;
  intakeRateLimit: number;
  scanRateLimit: number;
  scanMaxBytes: number;
  /**
   * Which proxies may name the client in X-Forwarded-For (Fastify's trustProxy): false, a hop count (that many
   * proxies in front), or the proxies' addresses/CIDRs. Either way the client IP is the right-most address not
   * added by a trusted proxy, so a client cannot choose it by sending X-Forwarded-For itself.
   */
  trustProxy: false | number | string[];
  botCheckVerifyUrls: Record<BotCheckProvider, string>;
  botCheckTimeoutMs: number;
  redisUrl: string | undefined;
  /**
   * HTTP timeouts in ms (docs/api.md, "Slow and heavy clients"): idle socket, whole request, headers, idle keep-alive.
   */
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Load shedding (503): mean event-loop delay, V8 heap used and RSS above these; 0 turns one off. */
  loadShedEventLoopDelayMs: number;
  loadShedHeapUsedBytes: number;
  loadShedRssBytes: number;
  logLevel: string;
  /** Worker processes for `serve` (PostgreSQL only). */
  workers: number;
  /** LOG_FORMAT: JSON lines, or short human-readable lines; unset means pretty on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** Bearer token for GET /metrics; unset means /metrics answers 404. */
  metricsToken: string | undefined;
  /** Outgoing email (docs/notifications.md); undefined when SMTP_URL is unset, and then no email is sent. */
  mail: MailConfig | undefined;
  /** EMAIL_BATCH_SECONDS: at most one notification email per person per this many seconds (default 60). */
  emailBatchSeconds: number;
  /**
   * CLI_COMMAND: how a person runs the CLI where this server runs, as the banner and the pages write it: `npx
   * leadscan` in a checkout (the default), `leadscan` on a server with deploy/leadscan installed (the unit sets it).
   */
  cliCommand: string;
  /**
   * LEADSCAN_WRITE_PATH: which path the hot writes (intake, scan upload, idempotency keys) take: 'hot', the hot
   * writers (the default), or 'batcher', the generic commit batcher alone. A bench switch (docs/performance.md, "One
   * write path or two"), not a setting: left out of docs/configuration.md on purpose.
   */
  writePath: WritePath;
}

export type WritePath = 'hot' | 'batcher';

export interface MailConfig {
  /**
   * smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465. Secret: log it
   * redacted.
   */
  smtpUrl: string;
  /** The From header, e.g. `Leadscan <leads@example.com>`. */
  from: string;
  /** `host:port` of the SMTP server, without credentials: what pages, the banner and errors may name. */
  server: string;
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

/** Names proxy-addr (Fastify's trustProxy) knows besides addresses and CIDRs. */
const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (TRUST_PROXY_RANGES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off, a hop count, or the proxies' addresses/CIDRs. `true` is refused: it would trust every
 * X-Forwarded-For entry, so any client could pick its own IP (and so its rate-limit counter) by sending one.
 */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim();
  if (!value || ['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  if (['true', 'on', 'yes'].includes(value.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY',
      `"${value}" would let any client choose its IP; write the number of proxies in front of Leadscan (e.g. 1) or ` +
        `their addresses/CIDRs (e.g. 10.0.0.0/8)`,
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new ConfigError('TRUST_PROXY', `must be at most 32 proxy hops, got ${value}`);
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isAddressOrCidr(entry));
  if (wrong !== undefined || entries.length === 0) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a number of proxy hops or a comma-separated list of proxy addresses/CIDRs, got "${(wrong ?? value).slice(
        0,
        100,
      )}"`,
    );
  }
  return entries;
}

/** An address alone (`a@b.c`) or with a display name (`Name <a@b.c>`). */
const FROM_ADDRESS = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

/** SMTP_URL and MAIL_FROM; the URL's password is never repeated in an error. */
function mailConfig(env: Env): MailConfig | undefined {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  const from = env.MAIL_FROM?.trim() || undefined;
  if (smtpUrl === undefined) {
    if (from !== undefined)
      throw new ConfigError(
        'SMTP_URL',
        'must be set when MAIL_FROM is (e.g. smtp://user:password@smtp.example.com:587)',
      );
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new ConfigError(
      'SMTP_URL',
      'is not a URL; write smtp://user:password@host:587 or smtps://user:password@host:465',
    );
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL', `must start with smtp:// or smtps://, got ${url.protocol}//`);
  }
  if (url.hostname === '') throw new ConfigError('SMTP_URL', 'names no host; write smtp://user:password@host:587');
  if (from === undefined) {
    throw new ConfigError('MAIL_FROM', 'must be set when SMTP_URL is: the sender, e.g. "Leadscan <leads@example.com>"');
  }
  if (!FROM_ADDRESS.test(from)) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an email address, optionally with a name ("Leadscan <leads@example.com>"), got "${from.slice(0, 100)}"`,
    );
  }
  const server = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')}`;
  return { smtpUrl, from, server };
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
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 600_000, 1000, 3_600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 20_000, 100, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`,
    );
  }
  const logFormat = env.LOG_FORMAT?.trim() || undefined;
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError('LOG_FORMAT', `must be json or pretty, got "${logFormat}"`);
  }
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters (use `openssl rand -hex 24`)');
  }
  const cliCommand = env.CLI_COMMAND?.trim() || 'npx leadscan';
  if (!/^[A-Za-z0-9_./ -]{1,100}$/.test(cliCommand)) {
    throw new ConfigError(
      'CLI_COMMAND',
      `must be a command of letters, digits, spaces, ".", "/", "-" or "_" (e.g. leadscan), got ` +
        `"${cliCommand.slice(0, 100)}"`,
    );
  }
  return {
    database,
    host,
    port,
    publicBaseUrl: httpUrl(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`),
    publicBaseUrlSet: Boolean(env.PUBLIC_BASE_URL?.trim()),
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
    connectionTimeoutMs: integer(env, 'CONNECTION_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 600_000),
    loadShedEventLoopDelayMs: integer(env, 'LOAD_SHED_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    // Default: shed before V8 runs out of heap (an out-of-memory crash would drop every request in flight).
    loadShedHeapUsedBytes: integer(
      env,
      'LOAD_SHED_HEAP_USED_BYTES',
      Math.floor(v8.getHeapStatistics().heap_size_limit * 0.9),
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    loadShedRssBytes: integer(env, 'LOAD_SHED_RSS_BYTES', 0, 0, Number.MAX_SAFE_INTEGER),
    logLevel,
    workers: integer(env, 'WORKERS', 1, 1, 64),
    logFormat,
    metricsToken,
    mail: mailConfig(env),
    emailBatchSeconds: integer(env, 'EMAIL_BATCH_SECONDS', 60, 0, 3600),
    cliCommand,
    writePath: writePath(env.LEADSCAN_WRITE_PATH),
  };
}

function writePath(raw: string | undefined): WritePath {
  const value = raw?.trim() || 'hot';
  if (value !== 'hot' && value !== 'batcher') {
    throw new ConfigError('LEADSCAN_WRITE_PATH', `must be hot or batcher, got "${value}"`);
  }
  return value;
}
