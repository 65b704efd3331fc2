import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { generateScanExchange, toJsonText } from '../fixtures/scan-exchange.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/leadscan.js');
const MiB = 1024 * 1024;

/** Peak and current resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kib('VmHWM'), now: kib('VmRSS') };
}

/**
 * The real server (`leadscan serve`, default SCAN_MAX_BYTES) in a child process, so its memory can be measured
 * on its own: a 30 MiB upload is stored with bounded memory, 33 MiB is refused, and a refused key with a big
 * body costs the server nothing.
 */
describeEachBackend('scan upload at the size limit (real server process)', (backend) => {
  let testDb: TestDatabase;
  let server: ChildProcess;
  let baseUrl: string;
  let uploadKey: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    env = { DATABASE_URL: testDb.url, APP_SECRET: crypto.randomBytes(32).toString('base64url') };
    server = spawn(process.execPath, [BIN, 'serve'], {
      env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        const key = /\b(lsk_[A-Za-z0-9_-]{43})\b/.exec(out);
        if (url && key) {
          baseUrl = url[1]!;
          uploadKey = key[1]!;
          resolve();
        }
      });
      server.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
  });

  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await testDb.drop();
  });

  const post = (body: Buffer, key = uploadKey) =>
    fetch(`${baseUrl}/api/scan/upload`, {
      method: 'POST',
      headers: { 'x-scan-key': key, 'content-type': 'application/json' },
      body,
    });
  const storedScans = () =>
    cliJson<Array<{ id: string; count: number; byteSize: number }>>(['scans', 'list', '--workspace', 'Default'], env);

  it('a refused key with a 33 MiB body gets 401 and the server does not take the body into memory', async () => {
    const body = Buffer.alloc(33 * MiB, 0x20);
    const before = memoryOf(server.pid!);
    const res = await post(body, `lsk_${'N'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_scan_key');
    const after = memoryOf(server.pid!);
    expect(after.peak - before.peak).toBeLessThan(16 * MiB);
    expect(await storedScans()).toEqual([]);
  });

  it('33 MiB (over SCAN_MAX_BYTES) gets 413 body_too_large and nothing is stored', async () => {
    const body = Buffer.alloc(33 * MiB, 0x20);
    body.write('{"rooms":[{"name":"Too big","pad":"', 0);
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('body_too_large');
    expect(await storedScans()).toEqual([]);
  });

  it('a 30 MiB upload is stored byte for byte with the server memory bounded', async () => {
    const value = generateScanExchange({ seed: 30, rooms: 10, meshBytes: 3_150_000 });
    const body = Buffer.from(toJsonText(value, { style: 'pretty' }));
    expect(body.length).toBeGreaterThanOrEqual(30 * MiB);
    expect(body.length).toBeLessThan(32 * MiB);
    const before = memoryOf(server.pid!);
    const res = await post(body, uploadKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, count: 10 });
    const after = memoryOf(server.pid!);
    // The buffered body, its slices bound into the INSERTs and the drivers' copies: a few times the body (measured
    // about 4.5x on SQLite, 3.2x on PostgreSQL), never more than 6x, and a sane absolute peak.
    expect(after.peak - before.now).toBeLessThan(6 * body.length);
    expect(after.peak).toBeLessThan(400 * MiB);
    process.stdout.write(
      `[${backend}] 30 MiB upload: server RSS ${Math.round(before.now / MiB)} MiB before, peak ${Math.round(after.peak / MiB)} MiB\n`,
    );

    const [scan] = await storedScans();
    expect(scan).toMatchObject({ count: 10, byteSize: body.length });
    const raw = await runCli(['scans', 'raw', scan!.id], env);
    expect(raw.stdoutBytes.equals(body)).toBe(true);
  }, 120_000);
});
