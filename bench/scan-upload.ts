/**
 * Scan upload throughput: MB/s for 1 MB and 20 MB bodies posted to a real listening server (loopback) on a
 * fresh SQLite file, each answered only after its durable commit. A few iterations per size; the median counts.
 *
 *   node --import tsx bench/scan-upload.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDomainContext } from '../src/runtime.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { openDatabase } from '../src/storage/database.js';
import { generateScanExchange, toJsonText } from '../test/fixtures/scan-exchange.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function body(targetBytes: number, seed: number): Buffer {
  const rooms = 8;
  const value = generateScanExchange({ seed, rooms, meshBytes: Math.max(0, Math.floor(targetBytes / rooms) - 6000) });
  return Buffer.from(toJsonText(value, { style: 'varied', seed }));
}

export async function benchScanUpload(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-scan-'));
  const appSecret = crypto.randomBytes(32).toString('base64url');
  const config = loadConfig({ DATABASE_URL: path.join(dir, 'bench.sqlite'), APP_SECRET: appSecret, LOG_LEVEL: 'silent' });
  const store = openDatabase(config.database);
  await store.migrate();
  const ctx = createDomainContext({ config, store, appSecret });
  const { uploadKey } = await createWorkspace({ ctx, input: { name: 'Bench' } });
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/scan/upload`;

  const lines = ['size      body bytes   iterations   median ms   median MB/s   best MB/s'];
  try {
    for (const [label, target, iterations] of [
      ['1 MB', 1_000_000, 15],
      ['20 MB', 20_000_000, 5],
    ] as const) {
      const payload = body(target, target);
      const post = async () => {
        const started = process.hrtime.bigint();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'x-scan-key': uploadKey, 'content-type': 'application/json' },
          body: payload,
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`upload answered ${res.status}`);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      await post(); // warm-up
      const times: number[] = [];
      for (let i = 0; i < iterations; i++) times.push(await post());
      const rate = (ms: number) => payload.length / 1e6 / (ms / 1000);
      lines.push(
        `${label.padEnd(9)} ${String(payload.length).padStart(10)}   ${String(iterations).padStart(10)}   ` +
          `${median(times).toFixed(1).padStart(9)}   ${rate(median(times)).toFixed(1).padStart(11)}   ` +
          `${rate(Math.min(...times)).toFixed(1).padStart(9)}`,
      );
    }
  } finally {
    await app.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  lines.push('(SQLite WAL, synchronous=FULL; each upload answered after its COMMIT; loopback, one client)');
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${await benchScanUpload()}\n`);
}
