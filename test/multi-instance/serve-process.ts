import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../bin/leadscan.js');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `leadscan serve [args]` as a real process on a free loopback port; resolves once the banner names the port. A
 * `prefix` runs it through another command first (`unshare … sh -c '… && exec "$@"' sh`), which must exec it.
 */
export function serveProcess(
  args: string[],
  env: Record<string, string>,
  options: { prefix?: string[] } = {},
): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...(options.prefix ?? []), process.execPath, BIN, 'serve', ...args];
    const child = spawn(command!, rest, {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let started = false;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match && !started) {
        started = true;
        resolve({
          child,
          url: match[1]!,
          output: () => out,
          exited,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      if (!started) reject(new Error(`serve exited ${code} before listening: ${out}`));
    });
  });
}

/** Child process ids of `pid` (the cluster workers of a primary). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Polls `check` until it returns a value (bounded); for process state that changes asynchronously. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
