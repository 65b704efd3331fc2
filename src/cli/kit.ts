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

export function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number (rooms count from 0)');
  return Number(value);
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
