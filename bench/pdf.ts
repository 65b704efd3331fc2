import Fastify from 'fastify';
import { renderPool } from '../src/pdf/render-pool.js';
import { quoteModel } from '../test/pdf/document-fixtures.js';

/**
 * PDFs (docs/documents.md): render times of a 30-line quote with 4 plans and of a 500-line one with 10 rooms through
 * the worker pool, and the p99 of a /healthz beside them with no render and while 20 documents render at once. The
 * /healthz is a Fastify route in this process, the same event loop the pool's answers come back on (the server's
 * renders run on the same pool); the RSS is this process's peak.
 */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${Math.round(n)} ms`;

export async function benchPdf(): Promise<string> {
  const pool = renderPool();
  let peakRss = process.memoryUsage().rss;
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  const app = Fastify();
  app.get('/healthz', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/healthz`;
  const probe = async (until: () => boolean) => {
    const times: number[] = [];
    while (!until()) {
      const t = performance.now();
      await (await fetch(url)).text();
      times.push(performance.now() - t);
      sample();
    }
    return times;
  };
  try {
    const small = quoteModel(30, { rooms: 4 });
    const large = quoteModel(500, { rooms: 10 });
    await pool.render(small);
    await pool.render(large);
    const time = async (model: typeof small, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i += 1) {
        const t = performance.now();
        await pool.render(model);
        out.push(performance.now() - t);
        sample();
      }
      return out;
    };
    const smallTimes = await time(small, 20);
    const largeTimes = await time(large, 6);
    const idleEnd = performance.now() + 3000;
    const idle = await probe(() => performance.now() > idleEnd);
    let rendering = true;
    const twenty = Promise.all(Array.from({ length: 20 }, (_, i) => pool.render(i % 5 === 0 ? large : small))).finally(
      () => (rendering = false),
    );
    const busy = await probe(() => !rendering);
    await twenty;
    return [
      '| | median | p95 |',
      '|---|---|---|',
      `| 30-line quote, 4 plans | ${ms(percentile(smallTimes, 50))} | ${ms(percentile(smallTimes, 95))} |`,
      `| 500-line quote, 10 rooms | ${ms(percentile(largeTimes, 50))} | ${ms(percentile(largeTimes, 95))} |`,
      `| /healthz p99, idle / while 20 documents render (${busy.length} requests) | ${ms(percentile(idle, 99))} | ${ms(percentile(busy, 99))} |`,
      `| peak RSS of the process (pool threads included) | ${Math.round(peakRss / 1024 / 1024)} MB | |`,
    ].join('\n');
  } finally {
    await app.close();
    await pool.close();
  }
}
