import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { eventually, serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/leadscan.js');
const DISK_BYTES = 8 * 1024 * 1024;

/**
 * A real full disk (docs/operations.md, "Health"): `leadscan serve` on SQLite whose data directory is an 8 MiB tmpfs
 * mounted in a mount namespace of its own (so nothing outside the test sees it), filled up from outside through
 * /proc/PID/root. Leads are refused with 503 (nothing acknowledged is lost), /healthz says 503 "the disk is full",
 * `leadscan doctor` says how little is free, and all of it recovers once space is freed.
 */
describe('a full disk under the data directory (process, SQLite on its own small file system)', () => {
  let server: ServeProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('healthz answers 503 with the reason while writes fail, doctor says the free space, and both recover', async () => {
    const data = path.join(tempDir(), 'data');
    fs.mkdirSync(data);
    const env = {
      DATABASE_URL: path.join(data, 'leadscan.sqlite'),
      DATA_DIR: data,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      // The test posts until the disk refuses, far more than a minute's quota from one address.
      INTAKE_RATE_LIMIT: '0',
    };
    server = await serveProcess([], env, {
      prefix: [
        'unshare',
        '--mount',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${DISK_BYTES} tmpfs "${data}" && exec "$@"`,
        'sh',
      ],
    });
    const pid = server.child.pid!;
    const token = /Intake URL:\s+\S+\/api\/intake\/(\S+)/.exec(server.output())?.[1];
    const uploadKey = /Scan upload key[^\n]*\n\s+(lsk_\S+)/.exec(server.output())?.[1];
    expect(token).toBeDefined();
    expect(uploadKey).toBeDefined();
    const health = async () => {
      const res = await fetch(`${server!.url}/healthz`);
      return { status: res.status, body: (await res.json()) as { ok: boolean; detail?: string; database?: string } };
    };
    const postLead = (i: number) =>
      fetch(`${server!.url}/api/intake/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Lead ${i}`, notes: `${i} ${'x'.repeat(1900)}` }),
      });
    /** The server's own view of the data directory, seen from outside its mount namespace. */
    const inside = path.join(`/proc/${pid}/root`, data);
    const doctor = () => {
      const run = spawnSync(
        'nsenter',
        ['-t', String(pid), '--mount', process.execPath, BIN, 'doctor', '--json', '--timeout', '1'],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } },
      );
      const report = JSON.parse(run.stdout) as { checks: Array<{ check: string; ok: boolean; detail: string }> };
      return (name: string) => report.checks.find((c) => c.check === name)!;
    };

    expect(await health()).toEqual({ status: 200, body: { ok: true, database: 'writable' } });
    expect((await postLead(0)).status).toBe(200);

    // Fill the disk to the last byte, as a runaway log or a copied file would.
    const filler = path.join(inside, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (const chunk of [Buffer.alloc(64 * 1024), Buffer.alloc(4096), Buffer.alloc(512)]) {
        for (;;) {
          try {
            fs.writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            break;
          }
        }
      }
    } finally {
      fs.closeSync(fd);
    }

    // Writes are refused (503, never a 200 for what was not stored) once the WAL can no longer grow: scans of
    // 256 KiB use up most of the room the WAL still had.
    let refused = false;
    for (let i = 1; i <= 100 && !refused; i += 1) {
      const res = await fetch(`${server.url}/api/scan/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-scan-key': uploadKey! },
        body: JSON.stringify({ rooms: [{ name: `Room ${i}`, notes: 'x'.repeat(256 * 1024) }] }),
      });
      refused = res.status === 503;
      if (!refused) expect(res.status).toBe(200);
    }
    expect(refused).toBe(true);
    // A lead still fits in what room a scan could not use; a few more, and leads are refused too.
    let leadRefused = false;
    for (let i = 1; i <= 500 && !leadRefused; i += 1) {
      const res = await postLead(i);
      leadRefused = res.status === 503;
      if (!leadRefused) expect(res.status).toBe(200);
    }
    expect(leadRefused).toBe(true);

    const full = await eventually(async () => {
      const h = await health();
      return h.status === 503 ? h : undefined;
    }, '/healthz to say the database cannot write');
    expect(full.body).toMatchObject({
      ok: false,
      code: 'service_unavailable',
      detail: expect.stringMatching(/^The database cannot take writes: the disk is full\./),
    });
    const fullDoctor = doctor();
    expect(fullDoctor('disk')).toMatchObject({ ok: false });
    const freeWhenFull = freeBytes(fullDoctor('disk').detail);
    expect(fullDoctor('disk').detail).toMatch(
      /^only \d+(\.\d)? (B|KiB) free of 8\.0 MiB under \S+data; the database takes \d+\.\d (KiB|MiB): free space/,
    );
    expect(fullDoctor('database')).toMatchObject({ ok: false });
    expect(fullDoctor('database').detail).toContain('the disk is full');

    // Space freed: healthy again within the probe's second, and leads are taken.
    fs.rmSync(filler);
    await eventually(async () => ((await health()).status === 200 ? true : undefined), '/healthz to recover');
    expect((await postLead(1000)).status).toBe(200);
    // What the filler took is free again (less what the database and its WAL grew into meanwhile).
    const freed = doctor()('disk').detail;
    expect(freed).toMatch(/^only \d+(\.\d)? (KiB|MiB) free of 8\.0 MiB under /);
    expect(freeBytes(freed)).toBeGreaterThan(freeWhenFull + 256 * 1024);
    expect(await server.stop()).toBe(0);
  }, 120_000);
});

/** The free space a doctor's disk line says, in bytes (`only 900.0 KiB free of …`). */
function freeBytes(detail: string): number {
  const [, figure, unit] = /^only (\d+(?:\.\d)?) (B|KiB|MiB) free/.exec(detail) ?? [];
  if (figure === undefined) throw new Error(`no free space in: ${detail}`);
  return Number(figure) * ({ B: 1, KiB: 1024, MiB: 1024 ** 2 } as Record<string, number>)[unit!]!;
}
