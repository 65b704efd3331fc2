import { expect } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { buildApp, type App } from '../../src/app.js';
import { LOG_REDACT_PATHS, loggerOptions } from '../../src/logging.js';
import type { TestWorld } from '../helpers/test-app.js';

export interface LoggedApp {
  app: App;
  baseUrl: string;
  /** Every log line so far, parsed. */
  lines: Array<Record<string, unknown>>;
  /** The raw log text so far. */
  text(): string;
  close(): Promise<void>;
}

/** The world's app with the production logger options (redaction included) writing into memory, listening. */
export async function listenWithLog(world: TestWorld, level = 'debug'): Promise<LoggedApp> {
  const chunks: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString('utf8');
      chunks.push(text);
      for (const line of text.split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const options = loggerOptions({ ...world.config, logLevel: level, logFormat: 'json' }) as Record<string, unknown>;
  expect(options.redact).toMatchObject({ paths: LOG_REDACT_PATHS });
  const app = await buildApp(world.ctx, { logger: { ...options, stream } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    lines,
    text: () => chunks.join(''),
    close: () => app.close(),
  };
}
