import { Writable } from 'node:stream';
import { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { serializeRequestForLog } from './http/request-log.js';

/** Secrets and personal data never reach the log (docs/architecture.md, docs/api.md). */
export const LOG_REDACT_PATHS = [
  'req.headers["x-scan-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'body.botCheckToken',
  'req.body.botCheckToken',
];

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const SKIPPED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);

/**
 * One short line per log record, for a person at a terminal: `12:04:31 WARN  message key=value`. Whatever is
 * not JSON is passed through unchanged.
 */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `${line}\n`;
  }
  const time = new Date(typeof record.time === 'number' ? record.time : Date.now()).toISOString().slice(11, 19);
  const level = (LEVEL_NAMES[record.level as number] ?? String(record.level)).padEnd(5);
  const extras = Object.entries(record)
    .filter(([key]) => !SKIPPED.has(key))
    .map(([key, value]) => {
      if (key === 'err' && value && typeof value === 'object') {
        const err = value as { message?: string; stack?: string };
        return `\n${err.stack ?? err.message ?? JSON.stringify(value)}`;
      }
      return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
    });
  return `${time} ${level} ${String(record.msg ?? '')}${extras.length ? ` ${extras.join(' ')}` : ''}\n`;
}

function prettyStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        out.write(prettyLine(pending.slice(0, newline)));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
}

/** LOG_FORMAT, or pretty when stdout is a terminal and JSON lines otherwise (a log collector reads those). */
export function logFormatOf(config: Config, out: { isTTY?: boolean } = process.stdout): 'json' | 'pretty' {
  return config.logFormat ?? (out.isTTY ? 'pretty' : 'json');
}

/**
 * Pino options for the server. Requests are logged without the client address (personal data, kept with the
 * lead instead). In pretty mode the per-request lines move to debug, so the first-start banner stays readable.
 */
export function loggerOptions(
  config: Config,
  out: NodeJS.WritableStream = process.stdout,
): FastifyServerOptions['logger'] {
  const pretty = logFormatOf(config, out as { isTTY?: boolean }) === 'pretty';
  return {
    level: config.logLevel,
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequestForLog },
    ...(pretty ? { stream: prettyStream(out) } : {}),
  };
}

/**
 * Fastify's logging options: the caller's logger (tests pass false), or ours. In pretty mode Fastify's own
 * per-request lines are off, so a person at a terminal sees the banner, warnings and errors (docs/operations.md logs).
 */
export function fastifyLogging(
  config: Config,
  logger: FastifyServerOptions['logger'] | undefined,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (logger !== undefined) return { logger };
  const pretty = logFormatOf(config) === 'pretty';
  return {
    logger: loggerOptions(config),
    ...(pretty ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
  };
}
