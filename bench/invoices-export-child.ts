/**
 * One accountant's export in a process of its own (spawned by bench/invoices.ts): reads the whole stream as a
 * download would and prints its bytes, time, the process's peak RSS (`maxRSS`), and the RSS and heap it had just
 * before the export against the most they reached during it (sampled every 5 ms), so the growth is the export's; and
 * the live heap, what a full collection leaves (every 250 ms, with --expose-gc): the memory the export holds on to,
 * garbage not counted.
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { inWorkspace } from '../src/domain/context.js';
import { exportInvoices, type BooksFormat } from '../src/domain/invoices/export-invoices.js';
import { openRuntime } from '../src/runtime.js';

const runtime = await openRuntime(loadConfig(process.env));
const ctx = inWorkspace(runtime.ctx, process.env.BENCH_WORKSPACE!);
const format = process.env.BENCH_FORMAT as BooksFormat;
const range = { from: process.env.BENCH_FROM!, to: process.env.BENCH_TO! };
// exceljs is loaded by the first .xlsx export: load it before the baseline, so the growth is the export's own.
if (format === 'xlsx') await import('exceljs');
global.gc?.();
const before = process.memoryUsage();
let maxRss = before.rss;
let maxHeap = before.heapUsed;
const sample = setInterval(() => {
  const m = process.memoryUsage();
  maxRss = Math.max(maxRss, m.rss);
  maxHeap = Math.max(maxHeap, m.heapUsed);
}, 5);
let maxLive = before.heapUsed;
const collect = setInterval(() => {
  global.gc?.();
  maxLive = Math.max(maxLive, process.memoryUsage().heapUsed);
}, 250);
const start = performance.now();
let bytes = 0;
let newlines = 0;
const stream = await exportInvoices({ ctx, input: { ...range, format } });
for await (const chunk of stream) {
  const buf = chunk as Buffer;
  bytes += buf.length;
  if (format === 'csv') for (const byte of buf) if (byte === 0x0a) newlines++;
}
const ms = performance.now() - start;
clearInterval(sample);
clearInterval(collect);
const after = process.memoryUsage();
maxRss = Math.max(maxRss, after.rss);
maxHeap = Math.max(maxHeap, after.heapUsed);
await runtime.store.close();
const mb = (n: number) => n / 1024 / 1024;
process.stdout.write(
  JSON.stringify({
    // CSV: records end in CRLF and the bench's fields hold no newline; minus the header.
    rows: format === 'csv' ? newlines - 1 : null,
    bytes,
    ms,
    rssBeforeMb: mb(before.rss),
    rssGrowthMb: mb(maxRss - before.rss),
    heapBeforeMb: mb(before.heapUsed),
    heapGrowthMb: mb(maxHeap - before.heapUsed),
    liveGrowthMb: mb(maxLive - before.heapUsed),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
