/**
 * Intake latency while the retention job purges 100,000 old leads (docs/performance.md, "Retention"): one process
 * serves intake over loopback HTTP to CONCURRENCY clients posting leads back to back, first for a baseline period,
 * then while `runRetention` deletes the old leads in its 500-row transactions; both p50/p99 are printed, from the
 * same run. The old leads are written straight into the database (the writer thread's own lead INSERT, with its
 * triggers), dated 2020, so only the purge differs between the two phases.
 *
 *   node --import tsx bench/retention.ts          # BENCH_OLD=100000 BENCH_SECONDS=10 BENCH_CONCURRENCY=8 (SQLite)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { emailKey, phoneKey } from '../src/storage/contact-keys.js';
import { runRetention } from '../src/domain/retention/run-retention.js';
import { updateWorkspaceSettings } from '../src/domain/settings/update-workspace-settings.js';
import { createDomainContext } from '../src/runtime.js';
import { openDatabase } from '../src/storage/database.js';
import { leadInsert, leadInsertParams } from '../src/storage/hot-writes/lead.js';
import { Markers } from '../src/storage/hot-writes/sql-parts.js';
import { benchDir, benchLead, seedBenchDatabase } from './setup.js';

const OLD = Number(process.env.BENCH_OLD ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const dir = benchDir('retention');
const file = path.join(dir, 'leadscan.sqlite');

async function setUp() {
  const seeded = await seedBenchDatabase(file, { INTAKE_RATE_LIMIT: '0' });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(leadInsert(new Markers('sqlite'), { guarded: true }));
  const started = Date.now();
  for (let i = 0; i < OLD; i += 1000) {
    db.exec('begin');
    for (let j = i; j < Math.min(i + 1000, OLD); j++) {
      insert.run(
        leadInsertParams('sqlite', [
          benchLead(seeded, {
            name: `Old Lead ${j}`,
            phone: '+44 20 7946 0958',
            email: `old-${j}@example.com`,
            notes: 'Kitchen refit, please call after 5 pm.',
            received_at: new Date(Date.UTC(2020, 0, 1) + j * 1000).toISOString(),
            client_ip: '203.0.113.7',
            user_agent: 'bench',
            email_key: emailKey(`old-${j}@example.com`),
            phone_key: phoneKey('+44 20 7946 0958'),
          }),
        ]),
      );
    }
    db.exec('commit');
  }
  db.close();
  process.stdout.write(`${OLD} old leads written in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return seeded;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function load(url: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  let n = 0;
  const client = async () => {
    while (!until()) {
      const body = JSON.stringify({ name: `New ${n}`, email: `new-${n++}@example.com` });
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`intake answered ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return latencies.sort((a, b) => a - b);
}

const report = (label: string, l: number[]) =>
  process.stdout.write(
    `${label.padEnd(22)} ${String(l.length).padStart(6)} leads  p50 ${percentile(l, 50).toFixed(1)} ms  p99 ${percentile(l, 99).toFixed(1)} ms  max ${l.at(-1)!.toFixed(1)} ms\n`,
  );

const seeded = await setUp();
const store = openDatabase(seeded.config.database);
await store.migrate();
const ctx = createDomainContext({ config: seeded.config, store, appSecret: seeded.appSecret });
const app = await buildApp(ctx, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/intake/${seeded.token}`;

// Warm-up, then the baseline.
let stopAt = Date.now() + 2000;
await load(url, () => Date.now() > stopAt);
stopAt = Date.now() + SECONDS * 1000;
report('intake alone', await load(url, () => Date.now() > stopAt));

await updateWorkspaceSettings({ ctx, input: { workspaceId: seeded.workspaceId, leadRetention: '3' } });
let purging = true;
const purgeStarted = Date.now();
const purge = runRetention(ctx).finally(() => {
  purging = false;
});
const during = await load(url, () => !purging);
const run = await purge;
report('intake during purge', during);
const deleted = run.workspaces.reduce((n, w) => n + w.leads, 0);
process.stdout.write(
  `purge: ${deleted} leads deleted in ${((Date.now() - purgeStarted) / 1000).toFixed(1)} s (500 per transaction)\n`,
);
await app.close();
await store.close();
fs.rmSync(dir, { recursive: true, force: true });
