import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { parsePrometheusText, valueOf, type Sample } from './prometheus-text.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describeEachBackend('GET /metrics', (backend) => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('is 404 without METRICS_TOKEN', async () => {
    world = await createWorld(backend);
    const app = await world.app();
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('is 401 without or with a wrong token, and Prometheus text whose counters move with the token', async () => {
    world = await createWorld(backend, { env: { METRICS_TOKEN: TOKEN } });
    const app = await world.app();
    const { source, uploadKey } = await world.seed();
    for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', TOKEN, `Basic ${TOKEN}`]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_metrics_token' });
      expect(res.body).not.toContain('leadscan_');
    }

    const scrape = async (): Promise<Sample[]> => {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return parsePrometheusText(res.body);
    };
    const before = await scrape();
    const intake = `/api/intake/${source.token}`;
    const post = (payload: Record<string, string>) => app.inject({ method: 'POST', url: intake, payload });
    expect((await post({ name: 'Ada' })).statusCode).toBe(200);
    expect((await post({ email: 'b@example.com' })).statusCode).toBe(200);
    expect((await post({ notes: 'no contact' })).statusCode).toBe(400);
    expect((await post({ name: 'Bot', website: 'spam' })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/intake/not-a-token', payload: { name: 'x' } })).statusCode,
    ).toBe(400);
    const body = '{"rooms":[{"name":"Kitchen"}]}';
    const scan = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': uploadKey, 'content-type': 'application/json' },
      payload: body,
    });
    expect(scan.statusCode).toBe(200);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('leadscan_leads_total', { outcome: 'accepted', code: '' })).toBe(2);
    expect(moved('leadscan_leads_total', { outcome: 'quarantined', code: 'honeypot' })).toBe(1);
    expect(moved('leadscan_leads_total', { outcome: 'refused', code: 'missing_contact' })).toBe(1);
    expect(moved('leadscan_leads_total', { outcome: 'refused', code: 'malformed_token' })).toBe(1);
    expect(moved('leadscan_http_requests_total', { method: 'POST', route: '/api/intake/:token', status: '200' })).toBe(
      3,
    );
    expect(moved('leadscan_http_requests_total', { method: 'POST', route: '/api/intake/:token', status: '400' })).toBe(
      2,
    );
    expect(moved('leadscan_http_request_duration_seconds_count', { method: 'POST', route: '/api/intake/:token' })).toBe(
      5,
    );
    expect(moved('leadscan_scan_uploads_total')).toBe(1);
    expect(moved('leadscan_scan_upload_bytes_total')).toBe(Buffer.byteLength(body));
    // Every stored lead, catch and scan went through a group commit.
    expect(moved('leadscan_commit_batch_size_count')).toBeGreaterThanOrEqual(4);
    expect(moved('leadscan_commit_duration_seconds_count')).toBe(moved('leadscan_commit_batch_size_count'));
    expect(after.some((s) => s.name.startsWith('nodejs_eventloop_lag'))).toBe(true);
    // No personal data in labels.
    expect(JSON.stringify(after)).not.toContain('Ada');
  });
});
