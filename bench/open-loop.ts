/**
 * An open-loop load generator, run as its own process by bench/run.ts:
 *
 *   node bench/open-loop.ts <url> <body-file> <rate per second> <seconds> <max connections>
 *
 * Requests are due at a fixed rate (request i at start + i / rate), whether or not earlier ones have been answered,
 * and each latency is counted from the moment the request was due, not from when a free connection sent it: a
 * server that stalls is charged for every request that piled up behind the stall (no coordinated omission, as
 * wrk2 measures). autocannon's `-R` was tried first and is not this: it sends each second's budget in a burst, so
 * even a raw echo at 8% load showed a p99 of 181 ms.
 *
 * Prints one JSON line: { sent, ok, rps, p50, p90, p99, max } (latencies in ms).
 */
import fs from 'node:fs';
import http from 'node:http';

const [url, bodyFile, rateText, secondsText, connectionsText] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile!);
const rate = Number(rateText);
const seconds = Number(secondsText);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connectionsText ?? 64) });
const target = new URL(url!);
const total = Math.round(rate * seconds);

const latencies: number[] = [];
let sent = 0;
let ok = 0;
let answered = 0;

function send(dueAt: number, done: () => void): void {
  const req = http.request(
    { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
    (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - dueAt);
        if (res.statusCode === 200) ok += 1;
        done();
      });
    },
  );
  req.on('error', () => {
    latencies.push(performance.now() - dueAt);
    done();
  });
  req.end(body);
}

const start = performance.now();
await new Promise<void>((resolve) => {
  const finish = () => {
    answered += 1;
    if (answered === total) resolve();
  };
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    for (; sent < due; sent += 1) send(start + (sent / rate) * 1000, finish);
    if (sent < total) setTimeout(tick, 1);
  };
  tick();
});
const elapsed = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
process.stdout.write(
  `${JSON.stringify({ sent, ok, rps: Math.round(total / elapsed), p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) })}\n`,
);
agent.destroy();
