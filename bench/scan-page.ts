/**
 * How long /healthz waits while two people open a big scan's page at once (docs/performance.md, "A big scan's
 * page"). The scan is 500 rooms of 600 walls each (test/fixtures/roomplan.ts, about 32 MB, inside every limit),
 * measured first as the background sweep would. One server in this process on SQLite, over loopback HTTP: /healthz is
 * polled back to back, first alone, then while two GETs of the scan's first page (and then of its last) run; the row
 * gives the health check's p50 and max in both phases and each page's time and size.
 *
 *   BENCH_ONLY=scan-page npm run bench            (this part only; a full `npm run bench` runs it last)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { createSession } from '../src/domain/auth/sessions.js';
import { showUploadKey } from '../src/domain/keys/show-upload-key.js';
import { measureScan } from '../src/domain/scans/measure-scan.js';
import { createUser } from '../src/domain/users/create-user.js';
import { createDomainContext } from '../src/runtime.js';
import { openDatabase } from '../src/storage/database.js';
import { manyWalledUpload } from '../test/fixtures/roomplan.js';
import { benchDir, seedBenchDatabase } from './setup.js';
import { inWorkspace } from '../src/domain/context.js';

const BASELINE_MS = 2000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** /healthz back to back until `done()`: each answer's wait in ms, sorted. */
async function pollHealth(base: string, done: () => boolean): Promise<number[]> {
  const waits: number[] = [];
  while (!done()) {
    const t0 = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    waits.push(performance.now() - t0);
  }
  return waits.sort((a, b) => a - b);
}

export async function benchScanPage(): Promise<string> {
  // The database's writer thread and timers are unref'd: something must hold the event loop open meanwhile.
  const alive = setInterval(() => {}, 1000);
  const dir = benchDir('scan-page');
  const seeded = await seedBenchDatabase(path.join(dir, 'leadscan.sqlite'), { SCAN_RATE_LIMIT: '0' });
  const store = openDatabase(seeded.config.database);
  await store.migrate();
  const ctx = createDomainContext({ config: seeded.config, store, appSecret: seeded.appSecret });
  const app = await buildApp(ctx, { logger: false });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { userId } = await createUser({
      ctx,
      input: { email: 'owner@bench.example', workspaceId: seeded.workspaceId, role: 'owner' },
    });
    const { sessionId } = await createSession({ ctx, input: { userId } });
    const { uploadKey } = await showUploadKey({ ctx: inWorkspace(ctx, seeded.workspaceId), input: {} });

    const body = manyWalledUpload(500, 600);
    const up = await fetch(`${base}/api/scan/upload`, {
      method: 'POST',
      headers: { 'x-scan-key': uploadKey, 'content-type': 'application/json' },
      body,
    });
    if (up.status !== 200) throw new Error(`the upload answered ${up.status}: ${await up.text()}`);
    const scan = await store.db
      .selectFrom('scans')
      .select('id')
      .where('workspace_id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    const measureStart = performance.now();
    await measureScan({ ctx, input: { scanId: scan.id } });
    const measureMs = performance.now() - measureStart;

    const pageUrl = (rest: string) => `${base}/w/${seeded.workspaceId}/scans/${scan.id}${rest}`;
    const open = async (url: string) => {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { cookie: `leadscan_session=${sessionId}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`the scan's page answered ${res.status}`);
      return { ms: performance.now() - t0, bytes: Buffer.byteLength(text) };
    };
    await open(pageUrl('')); // warm up

    const stopAt = performance.now() + BASELINE_MS;
    const alone = await pollHealth(base, () => performance.now() > stopAt);
    const during: number[] = [];
    const pages: Array<{ ms: number; bytes: number }> = [];
    for (const rest of ['', '?rooms=10']) {
      let rendering = true;
      const both = Promise.all([open(pageUrl(rest)), open(pageUrl(rest))]).finally(() => {
        rendering = false;
      });
      during.push(...(await pollHealth(base, () => !rendering)));
      pages.push(...(await both));
    }
    during.sort((a, b) => a - b);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const size = Math.max(...pages.map((p) => p.bytes));
    return [
      `scan of 500 rooms × 600 walls (${(body.length / 1e6).toFixed(1)} MB), measured in ${(measureMs / 1000).toFixed(1)} s`,
      `/healthz alone:                         p50 ${ms(percentile(alone, 50))}  max ${ms(alone.at(-1)!)}  (${alone.length} checks)`,
      `/healthz while 2 pages render (×2):     p50 ${ms(percentile(during, 50))}  max ${ms(during.at(-1)!)}  (${during.length} checks)`,
      `the scan's page (first and last of 10): ${pages.map((p) => ms(p.ms)).join(', ')}; at most ${(size / 1e3).toFixed(0)} KB`,
    ].join('\n');
  } finally {
    await app.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    clearInterval(alive);
  }
}
