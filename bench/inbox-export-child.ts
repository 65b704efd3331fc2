/** One CSV export in a process of its own (spawned by bench/inbox.ts): prints rows, bytes, time and peak RSS. */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { openRuntime } from '../src/runtime.js';
import { exportLeadsCsv } from '../src/domain/leads/export-leads.js';
import { inWorkspace } from '../src/domain/context.js';

const runtime = await openRuntime(loadConfig(process.env));
const start = performance.now();
let bytes = 0;
let newlines = 0;
const csv = await exportLeadsCsv({
  ctx: inWorkspace(runtime.ctx, process.env.BENCH_WORKSPACE!),
  input: { search: process.env.BENCH_SEARCH },
});
for await (const chunk of csv) {
  const buf = chunk as Buffer;
  bytes += buf.length;
  for (const byte of buf) if (byte === 0x0a) newlines++;
}
const ms = performance.now() - start;
await runtime.store.close();
// Rows: records end in CRLF and the bench's fields hold no newline; minus the header.
process.stdout.write(
  JSON.stringify({ rows: newlines - 1, bytes, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
);
