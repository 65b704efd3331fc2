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
 * It shares the machine with the server it measures, so it costs as little as it can: the request is one buffer
 * built once and written to a keep-alive socket, and an answer is read only as far as its status and its length
 * (Content-Length or chunked). node:http's client cost ~40% of a core at 2,600 req/s; this, a few percent.
 *
 * Prints one JSON line: { sent, ok, rps, p50, p90, p99, max } (latencies in ms).
 */
import fs from 'node:fs';
import net from 'node:net';

const [url, bodyFile, rateText, secondsText, connectionsText] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile!);
const rate = Number(rateText);
const seconds = Number(secondsText);
const maxConnections = Number(connectionsText ?? 64);
const target = new URL(url!);
const total = Math.round(rate * seconds);

const request = Buffer.concat([
  Buffer.from(
    `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`,
  ),
  body,
]);

const latencies: number[] = [];
let sent = 0;
let ok = 0;
let answered = 0;
let finished: () => void = () => undefined;

/** Requests due but not yet written: their due times. */
const waiting: number[] = [];
const idle: Connection[] = [];
let open = 0;

function answer(dueAt: number, status: number): void {
  latencies.push(performance.now() - dueAt);
  if (status === 200) ok += 1;
  answered += 1;
  if (answered === total) finished();
}

/** One keep-alive connection with at most one request on it. */
class Connection {
  private readonly socket: net.Socket;
  private dueAt = 0;
  private busy = false;
  private buffered: Buffer = Buffer.alloc(0);

  constructor() {
    open += 1;
    this.socket = net.connect(Number(target.port), target.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => this.lost());
  }

  send(dueAt: number): void {
    this.dueAt = dueAt;
    this.busy = true;
    this.socket.write(request);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const status = parseResponse(this.buffered);
    if (status === null) return;
    this.buffered = Buffer.alloc(0);
    this.busy = false;
    answer(this.dueAt, status.code);
    if (!status.keepAlive) {
      this.socket.destroy();
      return;
    }
    release(this);
  }

  private lost(): void {
    open -= 1;
    const at = idle.indexOf(this);
    if (at !== -1) idle.splice(at, 1);
    if (this.busy) answer(this.dueAt, 0);
    this.busy = false;
    pump();
  }
}

/** The status of a complete response in `data`, or null while it is incomplete. */
function parseResponse(data: Buffer): { code: number; keepAlive: boolean } | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd === -1) return null;
  const head = data.toString('latin1', 0, headEnd).toLowerCase();
  const code = Number(head.slice(9, 12));
  const keepAlive = !/\r\nconnection: *close/.test(head);
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) return data.length >= headEnd + 4 + Number(length[1]) ? { code, keepAlive } : null;
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) return { code, keepAlive };
  // Chunked: walk the chunk sizes to the last (empty) chunk.
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2 + size + 2;
    if (at > data.length) return null;
    if (size === 0) return { code, keepAlive };
  }
}

function release(connection: Connection): void {
  queueDue();
  const dueAt = waiting.shift();
  if (dueAt === undefined) idle.push(connection);
  else connection.send(dueAt);
}

/** Puts waiting requests on idle connections, opening new ones up to the maximum. */
function pump(): void {
  while (waiting.length > 0) {
    const connection = idle.pop() ?? (open < maxConnections ? new Connection() : null);
    if (!connection) return;
    connection.send(waiting.shift()!);
  }
}

const start = performance.now();

/** Queues every request that has come due. Runs on a 1 ms timer and whenever an answer wakes the process. */
function queueDue(): void {
  const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
  for (; sent < due; sent += 1) waiting.push(start + (sent / rate) * 1000);
}

await new Promise<void>((resolve) => {
  finished = resolve;
  const tick = () => {
    queueDue();
    pump();
    if (sent < total) setTimeout(tick, 1);
  };
  tick();
});
const elapsed = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
process.stdout.write(
  `${JSON.stringify({ sent, ok, rps: Math.round(total / elapsed), p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) })}\n`,
);
process.exit(0);
