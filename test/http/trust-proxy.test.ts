import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { NO_LOAD_SHEDDING } from './quiet-world.js';
import { storedRows } from './intake-helpers.js';

/**
 * Finding 2: behind a trusted proxy the client is the right-most X-Forwarded-For address the proxies did not add
 * themselves, never the left-most one, which the client writes.
 */
describeEachBackend('TRUST_PROXY takes the right-most untrusted address (finding 2)', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  async function postTen(env: Record<string, string>, forwardedFor: (i: number) => string) {
    world = await createWorld(backend, { env: { ...NO_LOAD_SHEDDING, INTAKE_RATE_LIMIT: '3', ...env } });
    const { source } = await world.seed();
    const baseUrl = await world.listen();
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i += 1) {
      const res = await fetch(`${baseUrl}/api/intake/${source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
        body: JSON.stringify({ name: `Lead ${i}` }),
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    return { statuses, rows: await storedRows(world, source.id) };
  }

  it('TRUST_PROXY=1: a client that invents left-most entries keeps its own counter and stored IP', async () => {
    const { statuses, rows } = await postTen({ TRUST_PROXY: '1' }, (i) => `203.0.113.${i}, 198.51.100.7`);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(rows.leads.map((lead) => lead.client_ip)).toEqual(['198.51.100.7', '198.51.100.7', '198.51.100.7']);
  });

  it('TRUST_PROXY as addresses/CIDRs: trusted hops are skipped from the right, the first untrusted one is the client', async () => {
    // The socket peer is 127.0.0.1 (trusted), 10.1.2.3 is an inner proxy (trusted), 198.51.100.7 is the client.
    const { statuses, rows } = await postTen(
      { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' },
      (i) => `203.0.113.${i}, 198.51.100.7, 10.1.2.3`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(new Set(rows.leads.map((lead) => lead.client_ip))).toEqual(new Set(['198.51.100.7']));
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: the socket address is the client', async () => {
    const { statuses, rows } = await postTen({}, (i) => `203.0.113.${i}`);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(new Set(rows.leads.map((lead) => lead.client_ip))).toEqual(new Set(['127.0.0.1']));
  });
});
