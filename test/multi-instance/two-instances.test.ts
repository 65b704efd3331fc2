import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { childPids, eventually, serveProcess, type ServeProcess } from './serve-process.js';

/**
 * Statelessness: several `leadscan serve` processes on one PostgreSQL database behave as one service. Real
 * processes, real HTTP on loopback, the database read back directly to count what was stored.
 */
describe.skipIf(!postgresAdminUrl)('several instances on one PostgreSQL', { timeout: 90_000 }, () => {
  let testDb: TestDatabase;
  let direct: pg.Client;
  const running: ServeProcess[] = [];
  let env: Record<string, string>;

  beforeEach(async () => {
    testDb = await createTestDatabase('postgres');
    direct = new pg.Client({ connectionString: testDb.url });
    await direct.connect();
    env = {
      DATABASE_URL: testDb.url,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      PUBLIC_BASE_URL: 'http://leadscan.test',
      INTAKE_RATE_LIMIT: '0',
      SCAN_RATE_LIMIT: '0',
    };
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await direct.end();
    await testDb.drop();
  });

  async function start(args: string[] = []): Promise<ServeProcess> {
    const proc = await serveProcess(args, env);
    running.push(proc);
    return proc;
  }

  const postLead = (base: string, token: string, email: string) =>
    fetch(`${base}/api/intake/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Multi Instance', email }),
    });
  const postScan = (base: string, key: string, body: string) =>
    fetch(`${base}/api/scan/upload`, {
      method: 'POST',
      headers: { 'x-scan-key': key, 'content-type': 'application/json' },
      body,
    });

  it('two processes started together bootstrap once, take interleaved traffic, and store every acknowledged item exactly once', async () => {
    // Started at the same moment: both migrate and both try the first-start bootstrap; the database decides.
    const [a, b] = await Promise.all([start(), start()]);
    const firstStarts = [a, b].filter((p) => p.output().includes('First start'));
    expect(firstStarts).toHaveLength(1);
    expect((await direct.query("select count(*)::int as n from workspaces where name = 'Default'")).rows[0].n).toBe(1);
    expect((await direct.query('select count(*)::int as n from lead_sources')).rows[0].n).toBe(1);
    const token = /Intake URL:\s+\S+\/api\/intake\/([0-9a-f-]{36})/.exec(b.output())?.[1];
    expect(/Intake URL:\s+\S+\/api\/intake\/([0-9a-f-]{36})/.exec(a.output())?.[1]).toBe(token);
    const key = /\n\s+(lsk_[A-Za-z0-9_-]{43})\n/.exec(firstStarts[0]!.output())?.[1];
    expect(token).toBeDefined();
    expect(key).toBeDefined();

    const instances = [a.url, b.url];
    const leadEmails = Array.from({ length: 240 }, (_, i) => `lead-${i}@multi.test`);
    const scanNonces = Array.from({ length: 40 }, (_, i) => `scan-${i}-${crypto.randomBytes(4).toString('hex')}`);
    // Intake and scans interleaved, alternating instances, many in flight at once.
    const leadCalls = leadEmails.map(async (email, i) => {
      const response = await postLead(instances[i % 2]!, token!, email);
      return { email, status: response.status, body: (await response.json()) as { ok: boolean; id?: string } };
    });
    const scanCalls = scanNonces.map(async (nonce, i) => {
      const body = `{"nonce":"${nonce}","rooms":[{"name":"Room ${i}","w":1.10},{"name":"Hall","h":1e3}]}`;
      const response = await postScan(instances[(i + 1) % 2]!, key!, body);
      return { nonce, body, status: response.status, json: (await response.json()) as { ok: boolean; count?: number } };
    });
    const [leads, scans] = await Promise.all([Promise.all(leadCalls), Promise.all(scanCalls)]);

    expect(leads.map((l) => l.status)).toEqual(Array(leadEmails.length).fill(200));
    expect(scans.map((s) => s.status)).toEqual(Array(scanNonces.length).fill(200));
    for (const s of scans) expect(s.json).toEqual({ ok: true, count: 2 });

    const storedLeads = await direct.query<{ id: string; email: string }>(
      "select id, email from leads where email like '%@multi.test'",
    );
    expect(storedLeads.rows).toHaveLength(leadEmails.length);
    const byId = new Map(storedLeads.rows.map((r) => [r.id, r.email]));
    expect(byId.size).toBe(leadEmails.length);
    for (const lead of leads) expect(byId.get(lead.body.id!)).toBe(lead.email);

    const storedScans = await direct.query<{ raw: Buffer; room_count: number }>('select raw, room_count from scans');
    expect(storedScans.rows).toHaveLength(scanNonces.length);
    const rawByNonce = new Map(
      storedScans.rows.map((r) => [/"nonce":"([^"]+)"/.exec(r.raw.toString('utf8'))![1], r.raw]),
    );
    expect(rawByNonce.size).toBe(scanNonces.length);
    for (const scan of scans) expect(rawByNonce.get(scan.nonce)?.equals(Buffer.from(scan.body))).toBe(true);
  });

  it('a key regenerated while two instances serve is refused by both at once, and the new key works on both', async () => {
    const a = await start();
    const b = await start();
    const workspace = await cliJson<{ id: string; uploadKey: string }>(['workspace', 'create', '--name', 'Keys'], env);
    const empty = '{"rooms":[]}';
    for (const base of [a.url, b.url]) expect((await postScan(base, workspace.uploadKey, empty)).status).toBe(200);

    const { uploadKey } = await cliJson<{ uploadKey: string }>(['key', 'regenerate', '--workspace', workspace.id], env);
    // No delay, no cache to expire: the very next request on either instance sees the new key.
    const [oldA, oldB, newA, newB] = await Promise.all([
      postScan(a.url, workspace.uploadKey, empty),
      postScan(b.url, workspace.uploadKey, empty),
      postScan(a.url, uploadKey, empty),
      postScan(b.url, uploadKey, empty),
    ]);
    expect([oldA.status, oldB.status, newA.status, newB.status]).toEqual([401, 401, 200, 200]);
    expect(await oldA.json()).toMatchObject({ code: 'invalid_scan_key' });
    expect(await oldB.json()).toMatchObject({ code: 'invalid_scan_key' });
  });

  it('serve --workers 2: one banner, workers share the port, a killed worker is replaced, SIGTERM stops them all', async () => {
    const primary = await start(['--workers', '2']);
    const pid = primary.child.pid!;
    const workers = await eventually(() => {
      const pids = childPids(pid);
      return pids.length === 2 ? pids : undefined;
    }, 'two workers');
    const out = primary.output();
    expect(out.match(/Leadscan is listening on/g)).toHaveLength(1);
    expect(out.match(/First start/g)).toHaveLength(1);
    expect(out).toContain('Serving with 2 worker processes on PostgreSQL');
    expect((await direct.query('select count(*)::int as n from workspaces')).rows[0].n).toBe(1);
    const token = /Intake URL:\s+\S+\/api\/intake\/([0-9a-f-]{36})/.exec(out)![1]!;

    const first = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postLead(primary.url, token, `w1-${i}@workers.test`)),
    );
    expect(first.map((r) => r.status)).toEqual(Array(40).fill(200));

    process.kill(workers[0]!, 'SIGKILL');
    const replaced = await eventually(() => {
      const pids = childPids(pid);
      return pids.length === 2 && !pids.includes(workers[0]!) ? pids : undefined;
    }, 'a replacement worker');
    expect(replaced).toContain(workers[1]);
    await eventually(
      () =>
        primary.output().includes(`worker ${workers[0]} exited (signal SIGKILL); starting a replacement`)
          ? true
          : undefined,
      'the replacement line',
    );
    await eventually(
      () => (/replacement worker \d+ is serving/.test(primary.output()) ? true : undefined),
      'the replacement to serve',
    );
    await eventually(
      async () => ((await fetch(`${primary.url}/readyz`)).status === 200 ? true : undefined),
      'readiness',
    );
    const second = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postLead(primary.url, token, `w2-${i}@workers.test`)),
    );
    expect(second.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(
      (await direct.query("select count(*)::int as n from leads where email like '%@workers.test'")).rows[0].n,
    ).toBe(80);

    // Both at once: the listening socket closes with the last of them, and the replacements open it again on the
    // same port (the port the banner named, even when it was chosen from PORT=0).
    for (const worker of replaced) process.kill(worker, 'SIGKILL');
    const again = await eventually(() => {
      const pids = childPids(pid);
      return pids.length === 2 && pids.every((p) => !replaced.includes(p)) ? pids : undefined;
    }, 'two more replacement workers');
    await eventually(
      () => ((primary.output().match(/replacement worker \d+ is serving/g) ?? []).length === 3 ? true : undefined),
      'both to serve',
    );
    const third = await Promise.all(
      Array.from({ length: 10 }, (_, i) => postLead(primary.url, token, `w3-${i}@workers.test`)),
    );
    expect(third.map((r) => r.status)).toEqual(Array(10).fill(200));

    expect(await primary.stop()).toBe(0);
    expect(primary.output().match(/stopped; writer committed/g)).toHaveLength(2);
    for (const worker of again) expect(() => process.kill(worker, 0)).toThrow();
  });
});
