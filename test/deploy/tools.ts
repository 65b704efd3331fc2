import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const DEPLOY = path.join(REPO, 'deploy');

/**
 * The system tool a deploy test drives (caddy, nginx, systemd-analyze): its path, or the reason it is missing.
 * In CI (CI=true, which .ci/run sets after installing them) a missing tool fails the test file: nothing is skipped
 * silently. Elsewhere the file is skipped, and says so loudly.
 */
export function systemTool(
  name: string,
  install: string,
): { path: string | undefined; skipReason: string | undefined } {
  let found: string | undefined;
  try {
    found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    found = undefined;
  }
  // nginx lives in /usr/sbin, which a user's PATH may lack.
  found ??= ['/usr/sbin', '/usr/bin', '/sbin', '/bin']
    .map((dir) => path.join(dir, name))
    .find((file) => fs.existsSync(file));
  if (found) return { path: found, skipReason: undefined };
  const reason = `${name} is not installed (${install}); .ci/run installs it`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}: the deploy tests must run in CI`);
  process.stderr.write(`\n[leadscan] DEPLOY TEST SKIPPED: ${reason}.\n\n`);
  return { path: undefined, skipReason: reason };
}

/** A TCP port free on `host` now (the proxies are given fixed ports in their configs). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0 }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `text` with each `[from, to]` replaced, failing when a `from` is not there (the deployed file changed under the test). */
export function substitute(
  text: string,
  replacements: Array<[from: string | RegExp, to: string]>,
  file: string,
): string {
  let out = text;
  for (const [from, to] of replacements) {
    const found = typeof from === 'string' ? out.includes(from) : from.test(out);
    if (!found) throw new Error(`${file} no longer contains ${String(from)}: update the test's copy of it`);
    out =
      typeof from === 'string'
        ? out.replaceAll(from, to)
        : out.replace(new RegExp(from.source, from.flags.includes('g') ? from.flags : `${from.flags}g`), to);
  }
  return out;
}
