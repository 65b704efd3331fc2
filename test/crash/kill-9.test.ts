import crypto from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';

/**
 * Crash consistency: `leadscan serve` (the built dist/, a real process) is killed with SIGKILL while intake posts and
 * scan uploads are in flight, then started again, a few times. Every request that was answered 200 must be stored
 * after the restarts, and the SQLite file must pass `PRAGMA integrity_check`.
 */
const CYCLES = 3;
/** Each cycle's kill comes once this many leads (and one upload) were answered 200, or after MAX_LOAD_MS. */
const MIN_ACKED_LEADS = 40;
const MIN_LOAD_MS = 300;
const MAX_LOAD_MS = 10_000;
const INTAKE_CLIENTS = 16;
const SCAN_CLIENTS = 3;

describeEachBackend('kill -9 under intake and scan-upload load', (backend) => {
  let testDb: TestDatabase;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    Object.assign(env, {
      DATABASE_URL: testDb.url,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      INTAKE_RATE_LIMIT: '0',
      SCAN_RATE_LIMIT: '0',
      PUBLIC_BASE_URL: 'http://crash.test',
    });
  });
  afterAll(async () => {
    await testDb.drop();
  });

  /** Posts until `until` resolves; returns the markers of the requests answered 200. */
  async function load(server: ServeProcess, token: string, key: string, cycle: number, until: Promise<void>) {
    let stop = false;
    void until.then(() => (stop = true));
    const leads: string[] = [];
    const scans: string[] = [];
    let n = 0;
    const intakeClient = async () => {
      while (!stop) {
        const marker = `c${cycle}-lead-${n++}`;
        try {
          const res = await fetch(`${server.url}/api/intake/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: marker, email: 'crash@example.com', notes: 'x'.repeat(400) }),
          });
          if (res.status === 200) leads.push(marker);
          else await res.arrayBuffer();
        } catch {
          return; // the server is gone
        }
      }
    };
    const scanClient = async () => {
      while (!stop) {
        const marker = `c${cycle}-scan-${n++}`;
        const rooms = [{ name: marker, mesh: crypto.randomBytes(48_000).toString('base64') }, { name: 'Hall' }];
        try {
          const res = await fetch(`${server.url}/api/scan/upload`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-scan-key': key },
            body: JSON.stringify({ rooms }),
          });
          if (res.status === 200) scans.push(marker);
          else await res.arrayBuffer();
        } catch {
          return;
        }
      }
    };
    const clients = [
      ...Array.from({ length: INTAKE_CLIENTS }, intakeClient),
      ...Array.from({ length: SCAN_CLIENTS }, scanClient),
    ];
    return { done: Promise.all(clients), leads, scans };
  }

  async function storedMarkers(): Promise<{ leads: Set<string>; scans: Set<string>; integrity: string | null }> {
    if (backend === 'sqlite') {
      const db = new BetterSqlite3(testDb.url);
      try {
        const leads = db.prepare('select name from leads').pluck().all() as string[];
        const scans = db.prepare('select name from scan_rooms where idx = 0').pluck().all() as string[];
        const integrity = db.prepare('pragma integrity_check').pluck().get() as string;
        return { leads: new Set(leads), scans: new Set(scans), integrity };
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    try {
      const leads = (await client.query<{ name: string }>('select name from leads')).rows.map((r) => r.name);
      const scans = (await client.query<{ name: string }>('select name from scan_rooms where idx = 0')).rows.map(
        (r) => r.name,
      );
      return { leads: new Set(leads), scans: new Set(scans), integrity: null };
    } finally {
      await client.end();
    }
  }

  it(`every 200 survives ${CYCLES} SIGKILLs under load`, async () => {
    const acknowledged = { leads: [] as string[], scans: [] as string[] };
    let token = '';
    let key = '';
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await serveProcess([], env);
      if (cycle === 0) {
        token = /\/api\/intake\/([0-9a-f-]{36})/.exec(server.output())![1]!;
        key = /x-scan-key: (\S+)'/.exec(server.output())![1]!;
      }
      let kill!: () => void;
      const killed = new Promise<void>((resolve) => (kill = resolve));
      const run = await load(server, token, key, cycle, killed);
      // Under load, wherever the requests are: a busy machine needs longer to answer the first ones.
      const started = Date.now();
      while (
        Date.now() - started < MAX_LOAD_MS &&
        (Date.now() - started < MIN_LOAD_MS || run.leads.length < MIN_ACKED_LEADS || run.scans.length === 0)
      ) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      server.child.kill('SIGKILL');
      await server.exited;
      kill();
      await run.done;
      acknowledged.leads.push(...run.leads);
      acknowledged.scans.push(...run.scans);
    }
    // One more start: recovery after the last kill (WAL replay) happens as a server would do it.
    const last = await serveProcess([], env);
    await last.stop();

    const stored = await storedMarkers();
    expect(acknowledged.leads.length).toBeGreaterThanOrEqual(CYCLES * MIN_ACKED_LEADS);
    expect(acknowledged.scans.length).toBeGreaterThan(0);
    expect(acknowledged.leads.filter((m) => !stored.leads.has(m))).toEqual([]);
    expect(acknowledged.scans.filter((m) => !stored.scans.has(m))).toEqual([]);
    if (backend === 'sqlite') expect(stored.integrity).toBe('ok');
  }, 90_000);
});
