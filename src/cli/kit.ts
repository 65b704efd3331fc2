import { Command, InvalidArgumentError } from 'commander';
import type { Config } from '../config.js';
import type { DomainContext } from '../domain/context.js';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

export type Render = (result: never) => string;

/** What every command group gets from `main`: the streams, the config, and the open-run-print-close wrapper. */
export interface CliKit {
  io: Io;
  jsonMode: boolean;
  getConfig: () => Config;
  /** Opens the database for one command, runs the verb, prints its result (JSON with --json), closes. */
  run: <A extends unknown[]>(
    verb: (ctx: DomainContext, ...args: A) => Promise<unknown>,
    render?: Render,
  ) => (...args: A) => Promise<void>;
  /** Adds the per-command --json flag. */
  withJson: (cmd: Command) => Command;
}

export function human(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? '(none)\n' : value.map((item) => human(item)).join('\n');
  }
  if (value && typeof value === 'object') {
    return `${Object.entries(value)
      .map(([k, v]) => `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('\n')}\n`;
  }
  return `${String(value)}\n`;
}

/** A whole number of 0 or more, refused with `refusal`. */
function wholeNumber(value: string, refusal: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(refusal);
  return Number(value);
}

/** A room index. */
export function nonNegativeInteger(value: string): number {
  return wholeNumber(value, 'must be a whole number (rooms count from 0)');
}

export function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

export function score(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !(parsed >= 0 && parsed <= 1)) throw new InvalidArgumentError('must be between 0 and 1');
  return parsed;
}

/** How many items `scans list` and `quarantine list` print unless told (`--limit`), and the most they print. */
export const LIST_PAGE = { size: 1000, max: 10_000 } as const;

export interface PageOptions {
  limit?: number;
  offset?: number;
}

/** `--limit` and `--offset` of a list printed newest first. */
export function withPaging(cmd: Command, items: string): Command {
  return cmd
    .option(
      '--limit <n>',
      `${items} to print (default ${LIST_PAGE.size}, at most ${LIST_PAGE.max})`,
      (value: string) => {
        const n = positiveInteger(value);
        if (n > LIST_PAGE.max) throw new InvalidArgumentError(`must be at most ${LIST_PAGE.max}`);
        return n;
      },
    )
    .option('--offset <n>', `skip this many of the newest ${items}`, (value: string) =>
      wholeNumber(value, 'must be a whole number (0 or more)'),
    );
}

/**
 * One page of a list: asks `fetch` for one more than the page to tell whether more exist, and if so says on stderr
 * how to get the next page (stdout stays the data).
 */
export async function listPage<T>(
  io: Io,
  options: PageOptions,
  fetch: (page: { limit: number; offset: number }) => Promise<T[]>,
): Promise<T[]> {
  const limit = options.limit ?? LIST_PAGE.size;
  const offset = options.offset ?? 0;
  const items = await fetch({ limit: limit + 1, offset });
  if (items.length > limit) io.stderr.write(`More: add --offset ${offset + limit}\n`);
  return items.slice(0, limit);
}
