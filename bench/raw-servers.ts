/**
 * The baselines, each run as its own process: `node --import tsx bench/raw-servers.ts <mode> <file or url>`.
 * - echo: node:http, reads the body, JSON.parse, answers a small JSON object (what any JSON API must at least do);
 * - sink: node:http, appends each body to a file and fdatasyncs it before answering (the least a durable store does);
 * - floor-sqlite <file>: the cheapest durable lead intake on Leadscan's stack: node:http reads and parses the JSON
 *   lead, checks it has a contact (email or phone), and a group commit stores it before the answer: one SQLite
 *   transaction per event-loop turn (WAL, synchronous=FULL), one INSERT prepared once into a table with a primary key
 *   and one index;
 * - floor-postgres <url>: its PostgreSQL twin: node:http + pg, one multi-row INSERT per event-loop turn, at most two
 *   at once (Leadscan's hot writer's lanes), synchronous_commit=on.
 * Each prints `listening on http://127.0.0.1:PORT`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

const [mode, target] = process.argv.slice(2);

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const fd = mode === 'sink' ? fs.openSync(target!, 'a') : -1;
const append = (body: Buffer) =>
  new Promise<void>((resolve, reject) =>
    fs.write(fd, body, (error) => (error ? reject(error) : fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())))),
  );

/** A floor lead: what the floor keeps of a body, and whom to answer once it is committed. */
interface Pending {
  row: [id: string, email: string | null, phone: string | null, body: string, receivedAt: string];
  done: (error?: unknown) => void;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** The group commit of the floor: rows gathered during one event-loop turn are stored by `commit`, then answered. */
function groupCommit(commit: (rows: Pending['row'][]) => Promise<void> | void, inFlightMax: number) {
  let queue: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;
  const flush = () => {
    scheduled = false;
    if (queue.length === 0 || inFlight >= inFlightMax) return;
    const batch = queue;
    queue = [];
    inFlight += 1;
    void (async () => {
      try {
        await commit(batch.map((p) => p.row));
        for (const p of batch) p.done();
      } catch (error) {
        for (const p of batch) p.done(error);
      } finally {
        inFlight -= 1;
        if (queue.length > 0 && !scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }
    })();
  };
  return (p: Pending) => {
    queue.push(p);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

function sqliteFloor(file: string) {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`create table if not exists leads (id text primary key, email text, phone text, body text not null, received_at text not null);
    create index if not exists leads_received on leads (received_at)`);
  const insert = db.prepare('insert into leads values (?, ?, ?, ?, ?)');
  const many = db.transaction((rows: Pending['row'][]) => {
    for (const row of rows) insert.run(row);
  });
  return groupCommit((rows) => many(rows), 1);
}

async function postgresFloor(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2, options: '-c synchronous_commit=on' });
  await pool.query(`create table if not exists leads (id text primary key, email text, phone text, body text not null, received_at text not null);
    create index if not exists leads_received on leads (received_at)`);
  const insert = {
    name: 'floor_insert',
    text: 'insert into leads select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])',
  };
  return groupCommit(async (rows) => {
    const columns = [0, 1, 2, 3, 4].map((i) => rows.map((r) => r[i]));
    await pool.query({ ...insert, values: columns });
  }, 2);
}

const store =
  mode === 'floor-sqlite' ? sqliteFloor(target!) : mode === 'floor-postgres' ? await postgresFloor(target!) : null;

const server = http.createServer((req, res) => {
  void readBody(req).then(async (body) => {
    if (mode === 'sink') {
      await append(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"count":1}');
      return;
    }
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const id = `lead_${crypto.randomUUID().replaceAll('-', '')}`;
    if (!store) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: typeof parsed === 'object', id }));
      return;
    }
    const email = text(parsed.email);
    const phone = text(parsed.phone);
    if (email === null && phone === null) {
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"a lead needs an email or a phone"}');
      return;
    }
    store({
      row: [id, email, phone, body.toString('utf8'), new Date().toISOString()],
      done: (error) => {
        if (error) res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"not stored"}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
      },
    });
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
