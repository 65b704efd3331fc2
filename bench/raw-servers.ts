/**
 * The baselines, each run as its own process: `node --import tsx bench/raw-servers.ts echo|sink <file>`.
 * - echo: node:http, reads the body, JSON.parse, answers a small JSON object (what any JSON API must at least do);
 * - sink: node:http, appends each body to a file and fdatasyncs it before answering (the least a durable store does).
 * Each prints `listening on http://127.0.0.1:PORT`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const [mode, file] = process.argv.slice(2);

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const fd = mode === 'sink' ? fs.openSync(file!, 'a') : -1;
const append = (body: Buffer) =>
  new Promise<void>((resolve, reject) =>
    fs.write(fd, body, (error) => (error ? reject(error) : fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())))),
  );

const server = http.createServer((req, res) => {
  void readBody(req).then(async (body) => {
    if (mode === 'sink') {
      await append(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"count":1}');
      return;
    }
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const id = `lead_${crypto.randomUUID().replaceAll('-', '')}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: typeof parsed === 'object', id }));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
